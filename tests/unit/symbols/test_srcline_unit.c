/* SPDX-License-Identifier: MIT */
/*
 * test_srcline_unit.c - srcline-unit.c on crafted DWARF bytes: the unit
 * header of DWARF 4 and 5 units, the abbreviation table's extent (what
 * srcline-zdebug.c inflates of .debug_abbrev), a table whose forms refer
 * outside the unit, a table cut off, and the unit DIE's DW_AT_stmt_list
 * (what it inflates of .debug_line) past values of every width, absent, or
 * behind a form it does not know.  A wrong extent or offset here would
 * hand libdw a section cut short, and its answers would change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <dwarf.h>

#include "symbols/symbols.h"

/* An abbreviation table at offset 3 (3 bytes of another table before
 * it): code 1 the unit DIE (producer string, language data1, name
 * line_strp, low_pc addr, a block1, stmt_list sec_offset), code 2 a
 * variable with an implicit_const, then the table's 0. */
static const unsigned char abbrev[] = {
	0x00, 0x00, 0x00,
	0x01, DW_TAG_compile_unit, DW_CHILDREN_yes,
	DW_AT_producer, DW_FORM_string, DW_AT_language, DW_FORM_data1,
	DW_AT_name, DW_FORM_line_strp, DW_AT_low_pc, DW_FORM_addr,
	DW_AT_location, DW_FORM_block1, DW_AT_stmt_list, DW_FORM_sec_offset, 0, 0,
	0x02, DW_TAG_variable, DW_CHILDREN_no,
	DW_AT_decl_line, DW_FORM_implicit_const, 0x7f, DW_AT_type, DW_FORM_ref4, 0, 0,
	0x00,
	0x09, 0x09,	/* the next table's bytes */
};
#define TABLE_END 31u

/* A DWARF 5 compile unit using it, stmt_list 0x1234 */
static const unsigned char unit5[] = {
	33, 0, 0, 0, 5, 0, DW_UT_compile, 8, 3, 0, 0, 0,
	0x01, 'g', 'c', 'c', 0, 0x1d, 0x10, 0, 0, 0,
	1, 2, 3, 4, 5, 6, 7, 8, 2, 0xaa, 0xbb, 0x34, 0x12, 0, 0,
};

static void dwarf5_unit(void **state)
{
	struct pk__cu_head h;
	uint64_t spec, end = 0, stmt = 0;

	(void)state;
	assert_true(pk__cu_head_read(unit5, sizeof(unit5), &h));
	assert_int_equal(h.version, 5);
	assert_int_equal(h.osz, 4);
	assert_int_equal(h.asz, 8);
	assert_int_equal(h.abbrev, 3);
	assert_int_equal(h.code, 1);
	assert_ptr_equal(h.end, unit5 + sizeof(unit5));
	assert_int_equal(pk__abbrev_scan(abbrev, sizeof(abbrev), h.abbrev, h.code, &spec, &end), 1);
	assert_int_equal(end, TABLE_END);
	assert_int_equal(spec, 6);
	assert_int_equal(pk__cu_stmt_list(&h, abbrev + spec, abbrev + end, &stmt), 1);
	assert_int_equal(stmt, 0x1234);
	/* a code the table lacks: no specifications, the extent as before */
	assert_int_equal(pk__abbrev_scan(abbrev, sizeof(abbrev), 3, 7, &spec, &end), 1);
	assert_int_equal(spec, UINT64_MAX);
	assert_int_equal(end, TABLE_END);
}

static void table_cut_off(void **state)
{
	uint64_t spec, end;

	(void)state;
	for (uint64_t have = 3; have < TABLE_END; have++)
		assert_int_equal(pk__abbrev_scan(abbrev, have, 3, 1, &spec, &end), -1);
	assert_int_equal(pk__abbrev_scan(abbrev, TABLE_END, 3, 1, &spec, &end), 1);
}

static void table_refers_outside(void **state)
{
	unsigned char t[sizeof(abbrev)];
	const unsigned char forms[] = { DW_FORM_ref_addr, DW_FORM_ref_sig8, DW_FORM_indirect, DW_FORM_ref_sup4,
					DW_FORM_ref_sup8, DW_FORM_strp_sup };
	/* the GNU alt forms, 0x1f20 and 0x1f21, as two-byte ulebs */
	unsigned char alt[] = { 0x01, DW_TAG_variable, DW_CHILDREN_no, DW_AT_type, 0xa0, 0x3e, 0, 0, 0 };
	uint64_t spec, end;

	(void)state;
	for (size_t i = 0; i < sizeof(forms); i++) {
		memcpy(t, abbrev, sizeof(t));
		t[27] = forms[i];	/* code 2's DW_AT_type */
		assert_int_equal(pk__abbrev_scan(t, sizeof(t), 3, 1, &spec, &end), 0);
	}
	assert_int_equal(pk__abbrev_scan(alt, sizeof(alt), 0, 1, &spec, &end), 0);
	alt[4] = 0xa1;
	assert_int_equal(pk__abbrev_scan(alt, sizeof(alt), 0, 1, &spec, &end), 0);
	alt[4] = DW_FORM_ref4;
	alt[5] = 0;	/* a local form: the table reads to its end */
	assert_int_equal(pk__abbrev_scan(alt, sizeof(alt), 0, 1, &spec, &end), 1);
	assert_int_equal(end, 8);
}

/* A code defined twice is its first definition, as libdw reads it. */
static void code_defined_twice(void **state)
{
	/* code 1: a name string; code 1 again: stmt_list; code 0: the end */
	const unsigned char t[] = { 0x01, DW_TAG_compile_unit, DW_CHILDREN_no, DW_AT_name, DW_FORM_string, 0, 0,
				    0x01, DW_TAG_compile_unit, DW_CHILDREN_no, DW_AT_stmt_list, DW_FORM_sec_offset,
				    0, 0, 0 };
	uint64_t spec, end;

	(void)state;
	assert_int_equal(pk__abbrev_scan(t, sizeof(t), 0, 1, &spec, &end), 1);
	assert_int_equal(spec, 3);
	assert_int_equal(end, sizeof(t));
	/* an offset past the table: none, and no pointer made past it */
	assert_int_equal(pk__abbrev_scan(t, sizeof(t), UINT64_MAX - 4, 1, &spec, &end), -1);
}

/* pk__dwarf_unit_size: 32- and 64-bit lengths; cut, reserved and wrapping
 * ones are none. */
static void unit_sizes(void **state)
{
	const unsigned char l32[] = { 8, 0, 0, 0 }, res[] = { 0xf0, 0xff, 0xff, 0xff },
			    l64[] = { 0xff, 0xff, 0xff, 0xff, 20, 0, 0, 0, 0, 0, 0, 0 },
			    wrap[] = { 0xff, 0xff, 0xff, 0xff, 0xf4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	unsigned int hdr = 0;

	(void)state;
	assert_int_equal(pk__dwarf_unit_size(l32, 0, sizeof(l32), &hdr), 12);
	assert_int_equal(hdr, 4);
	assert_int_equal(pk__dwarf_unit_size(l64, 0, sizeof(l64), &hdr), 32);
	assert_int_equal(hdr, 12);
	assert_true(pk__dwarf_unit_size(l64, 0, 11, &hdr) == UINT64_MAX);
	assert_true(pk__dwarf_unit_size(l32, 1, sizeof(l32), &hdr) == UINT64_MAX);
	assert_true(pk__dwarf_unit_size(l32, 9, sizeof(l32), &hdr) == UINT64_MAX);
	assert_true(pk__dwarf_unit_size(res, 0, sizeof(res), &hdr) == UINT64_MAX);
	assert_true(pk__dwarf_unit_size(wrap, 0, sizeof(wrap), &hdr) == UINT64_MAX);
}

static void dwarf4_unit(void **state)
{
	/* version 4: abbrev offset, then address size; stmt_list sec_offset */
	const unsigned char u4[] = {
		34, 0, 0, 0, 4, 0, 3, 0, 0, 0, 8,
		0x01, 'c', 'c', 0, 0x0c, 0x20, 0, 0, 0,
		1, 2, 3, 4, 5, 6, 7, 8, 1, 0xaa, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0,
	};
	struct pk__cu_head h;
	uint64_t spec, end, stmt = 0;

	(void)state;
	assert_true(pk__cu_head_read(u4, sizeof(u4), &h));
	assert_int_equal(h.version, 4);
	assert_int_equal(h.abbrev, 3);
	assert_int_equal(h.asz, 8);
	assert_int_equal(pk__abbrev_scan(abbrev, sizeof(abbrev), 3, h.code, &spec, &end), 1);
	assert_int_equal(pk__cu_stmt_list(&h, abbrev + spec, abbrev + end, &stmt), 1);
	assert_int_equal(stmt, 0x12345678);
}

static void units_not_read(void **state)
{
	unsigned char u[sizeof(unit5)];
	struct pk__cu_head h;

	(void)state;
	memcpy(u, unit5, sizeof(u));
	u[6] = DW_UT_type;
	assert_false(pk__cu_head_read(u, sizeof(u), &h));
	memcpy(u, unit5, sizeof(u));
	u[4] = 6;	/* version */
	assert_false(pk__cu_head_read(u, sizeof(u), &h));
	/* the unit longer than the bytes there */
	assert_false(pk__cu_head_read(unit5, sizeof(unit5) - 1, &h));
	memcpy(u, unit5, sizeof(u));
	u[12] = 0;	/* no unit DIE */
	assert_false(pk__cu_head_read(u, sizeof(u), &h));
}

static void stmt_list_absent_or_unknown(void **state)
{
	/* code 1: name string, stmt_list missing; code 2: an unknown form
	 * before stmt_list; code 3: stmt_list as a udata (not an offset) */
	const unsigned char t[] = {
		0x01, DW_TAG_compile_unit, DW_CHILDREN_no, DW_AT_name, DW_FORM_string, 0, 0,
		0x02, DW_TAG_compile_unit, DW_CHILDREN_no, DW_AT_name, 0x7e, DW_AT_stmt_list, DW_FORM_sec_offset, 0, 0,
		0x03, DW_TAG_compile_unit, DW_CHILDREN_no, DW_AT_stmt_list, DW_FORM_udata, 0, 0,
		0x00,
	};
	unsigned char u[] = { 12, 0, 0, 0, 5, 0, DW_UT_compile, 8, 0, 0, 0, 0, 0x01, 'a', 0, 0 };
	struct pk__cu_head h;
	uint64_t spec, end, stmt;

	(void)state;
	for (unsigned char code = 1; code <= 3; code++) {
		u[12] = code;
		assert_true(pk__cu_head_read(u, sizeof(u), &h));
		assert_int_equal(pk__abbrev_scan(t, sizeof(t), 0, code, &spec, &end), 1);
		assert_int_equal(end, sizeof(t));
		assert_int_equal(pk__cu_stmt_list(&h, t + spec, t + end, &stmt), code == 1 ? 0 : -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dwarf5_unit),
		cmocka_unit_test(table_cut_off),
		cmocka_unit_test(table_refers_outside),
		cmocka_unit_test(code_defined_twice),
		cmocka_unit_test(unit_sizes),
		cmocka_unit_test(dwarf4_unit),
		cmocka_unit_test(units_not_read),
		cmocka_unit_test(stmt_list_absent_or_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
