// SPDX-License-Identifier: GPL-2.0
/*
 * gfptop_oracle's debugfs files, in /sys/kernel/debug/gfptop_oracle:
 * control (runs a campaign), records (its rows, formatted here), pid
 * (the threads') and held (what the holder still holds).
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>

#include "oracle.h"

static struct dentry *dir;
static DEFINE_MUTEX(run_lock);
char *oracle_out_buf;
static size_t out_len;

void oracle_format_records(void)
{
	size_t n = 0;
	int i;

	n += scnprintf(oracle_out_buf + n, OUT_SIZE - n,
		       "# zone=%s min=%ld low=%ld high=%ld boost=%lu managed=%lu lowmem_reserve=%ld pageblock_order=%u camp_pid=%d lower_zones_held=%ld higher_zones_held=%ld\n",
		       oracle_zone->name, oracle_wmark(WMARK_MIN), oracle_wmark(WMARK_LOW),
		       oracle_wmark(WMARK_HIGH), oracle_zone->watermark_boost,
		       zone_managed_pages(oracle_zone), oracle_lowmem(),
		       pageblock_order, oracle_camp_task->pid, oracle_nr_lower_held,
		       oracle_nr_higher_held);
	n += scnprintf(oracle_out_buf + n, OUT_SIZE - n,
		       "# seq case level rep ctx order gfp reached lo hi free_before free_after reserved_ha ha_avail pfn wmin normal_free boost boost_after normal_avail\n");
	for (i = 0; i < oracle_nr_recs; i++) {
		const struct rec *r = &oracle_recs[i];
		const struct oracle_case *c = &oracle_cases[r->c];

		n += scnprintf(oracle_out_buf + n, OUT_SIZE - n,
			       "%d %s %s %d %s %u %#x %d %ld %ld %ld %ld %ld %d %ld %ld %ld %ld %ld %d\n",
			       i, c->name, oracle_level_names[r->level], r->rep,
			       oracle_ctx_names[c->ctx], c->order, (__force unsigned int)c->gfp,
			       r->reached, r->lo, r->hi, r->free_before,
			       r->free_after, r->reserved_ha, r->ha_avail, r->pfn,
			       r->wmin, r->normal_free, r->boost, r->boost_after,
			       r->normal_avail);
	}
	out_len = n;
}

static ssize_t control_write(struct file *f, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char cmd[16] = "";
	int ret;

	if (copy_from_user(cmd, ubuf, min(len, sizeof(cmd) - 1)))
		return -EFAULT;
	if (!mutex_trylock(&run_lock))
		return -EBUSY;
	if (!strncmp(cmd, "runwalk", 7)) {
		oracle_camp_cmd = 5;
	} else if (!strncmp(cmd, "run1", 4)) {
		oracle_camp_cmd = 4;
	} else if (!strncmp(cmd, "run", 3)) {
		oracle_camp_cmd = 1;
	} else if (!strncmp(cmd, "fallback", 8)) {
		oracle_camp_cmd = 2;
	} else if (!strncmp(cmd, "rfail", 5)) {
		oracle_camp_cmd = 3;
	} else {
		mutex_unlock(&run_lock);
		return -EINVAL;
	}
	reinit_completion(&oracle_camp_done);
	complete(&oracle_camp_req);
	ret = wait_for_completion_killable(&oracle_camp_done);
	mutex_unlock(&run_lock);
	return ret ? ret : len;
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.write = control_write,
};

static ssize_t records_read(struct file *f, char __user *ubuf, size_t len,
			    loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, len, ppos, oracle_out_buf, out_len);
}

static const struct file_operations records_fops = {
	.owner = THIS_MODULE,
	.read = records_read,
};

static int pid_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %d\n", oracle_camp_task->pid, oracle_hold_task->pid);
	return 0;
}

/* pages the holder still holds: 0 after every campaign */
static int held_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%ld\n", READ_ONCE(oracle_nr_held_pages));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(held);
DEFINE_SHOW_ATTRIBUTE(pid);

/* the directory and its files: oracle_init(), once both threads run */
void oracle_debugfs_create(void)
{
	dir = debugfs_create_dir("gfptop_oracle", NULL);
	debugfs_create_file("control", 0200, dir, NULL, &control_fops);
	debugfs_create_file("records", 0400, dir, NULL, &records_fops);
	debugfs_create_file("pid", 0400, dir, NULL, &pid_fops);
	debugfs_create_file("held", 0400, dir, NULL, &held_fops);
}

/* oracle_exit(), before it stops the threads */
void oracle_debugfs_remove(void)
{
	debugfs_remove_recursive(dir);
}
