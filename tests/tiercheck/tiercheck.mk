# The host-side tier checker (tests/tiercheck/tiercheck.c): no libraries.
#   make -f tests/tiercheck/tiercheck.mk BUILD=build build/tiercheck
BUILD ?= build
TIERCHECK_CC ?= $(CC)

$(BUILD)/tiercheck: tests/tiercheck/tiercheck.c
	@mkdir -p $(@D)
	$(TIERCHECK_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@.tmp $<
	mv $@.tmp $@
