/* SPDX-License-Identifier: MIT */
/*
 * srcline-unit.c - just enough of a compilation unit's DWARF, read from
 * the raw bytes, for srcline-zdebug.c to know which parts of .debug_abbrev
 * and .debug_line a unit's DIEs and line table can touch, so those
 * sections are inflated and handed to libdw only that far: the unit
 * header (version, offset and address sizes, its abbreviation table), the
 * abbreviation table at that offset (to its terminating 0, every form
 * checked to stay within the unit) and the unit DIE's DW_AT_stmt_list.
 * Anything not understood is answered "cannot tell", and the caller then
 * takes the whole sections, so libdw's answers never depend on a guess.
 */
#include "symbols/symbols.h"

#include <dwarf.h>
#include <string.h>

uint64_t pk__dwarf_le(const unsigned char *b, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

uint64_t pk__dwarf_unit_size(const unsigned char *buf, uint64_t off, uint64_t have, unsigned int *hdr)
{
	uint64_t len;

	if (off > have || have - off < 4)
		return UINT64_MAX;
	if ((len = pk__dwarf_le(buf + off, 4)) < 0xfffffff0) {
		*hdr = 4;
		return len + 4;
	}
	/* 0xfffffff0 to 0xfffffffe are reserved; a 64-bit length near 2^64
	 * would wrap when the header is added */
	if (len != 0xffffffff || have - off < 12 || (len = pk__dwarf_le(buf + off + 4, 8)) > UINT64_MAX - 12)
		return UINT64_MAX;
	*hdr = 12;
	return len + 12;
}

static bool uleb(const unsigned char **b, const unsigned char *end, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*b < end && shift < 64) {
		unsigned char c = *(*b)++;

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

bool pk__cu_head_read(const unsigned char *u, uint64_t avail, struct pk__cu_head *h)
{
	const unsigned char *b = u, *end;
	unsigned int hdr = 4;
	uint64_t size = pk__dwarf_unit_size(u, 0, avail, &hdr);

	if (size > avail || size < hdr + 2u)
		return false;
	h->osz = hdr == 12 ? 8 : 4;
	b += hdr;
	end = u + size;
	h->version = (unsigned int)pk__dwarf_le(b, 2);
	b += 2;
	if (h->version < 2 || h->version > 5)
		return false;
	if (h->version == 5) {
		if ((uint64_t)(end - b) < 2u + h->osz || (b[0] != DW_UT_compile && b[0] != DW_UT_partial))
			return false;	/* type and split units: the caller takes everything */
		h->asz = b[1];
		h->abbrev = pk__dwarf_le(b + 2, h->osz);
		b += 2 + h->osz;
	} else {
		if ((uint64_t)(end - b) < 1u + h->osz)
			return false;
		h->abbrev = pk__dwarf_le(b, h->osz);
		h->asz = b[h->osz];
		b += 1 + h->osz;
	}
	h->die = b;
	h->end = end;
	return (h->asz == 4 || h->asz == 8) && uleb(&h->die, end, &h->code) && h->code;
}

int pk__abbrev_scan(const unsigned char *buf, uint64_t have, uint64_t off, uint64_t code,
		    uint64_t *spec, uint64_t *table_end)
{
	const unsigned char *b, *end;
	uint64_t c, tag, attr, form;

	*spec = UINT64_MAX;
	if (off >= have)	/* (buf may be NULL: nothing inflated yet) */
		return -1;
	b = buf + off;	/* (off is the file's: only a pointer inside is made) */
	end = buf + have;
	for (;;) {
		if (!uleb(&b, end, &c))
			return -1;
		if (!c)
			break;	/* the table's end */
		if (!uleb(&b, end, &tag) || b++ >= end)
			return -1;
		if (c == code && *spec == UINT64_MAX)	/* the first, as libdw takes it */
			*spec = (uint64_t)(b - buf);
		do {
			if (!uleb(&b, end, &attr) || !uleb(&b, end, &form))
				return -1;
			/* forms that refer outside the unit, or whose form only
			 * the DIE knows: every unit is needed */
			if (form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 || form == DW_FORM_indirect ||
			    form == DW_FORM_GNU_ref_alt || form == DW_FORM_GNU_strp_alt || form == DW_FORM_ref_sup4 ||
			    form == DW_FORM_ref_sup8 || form == DW_FORM_strp_sup)
				return 0;
			if (form == DW_FORM_implicit_const && !uleb(&b, end, &tag))
				return -1;	/* an sleb's bytes skip as an uleb's */
		} while (attr || form);
	}
	*table_end = (uint64_t)(b - buf);
	return 1;
}

/* The bytes of a form's value, or -1 when not known here. */
static int64_t form_size(uint64_t form, const unsigned char *b, const unsigned char *end,
			 const struct pk__cu_head *h)
{
	const unsigned char *p = b;
	uint64_t n;

	switch (form) {
	case DW_FORM_flag_present: case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1: case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4: case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return h->asz;
	case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_sec_offset: case DW_FORM_strp_sup:
		return h->osz;
	case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx:
	case DW_FORM_rnglistx: case DW_FORM_loclistx: case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		return uleb(&p, end, &n) ? p - b : -1;
	case DW_FORM_string:
		p = memchr(b, 0, (size_t)(end - b));
		return p ? p - b + 1 : -1;
	case DW_FORM_block1:
		return b < end ? 1 + (int64_t)b[0] : -1;
	case DW_FORM_block2:
		return end - b >= 2 ? 2 + (int64_t)pk__dwarf_le(b, 2) : -1;
	case DW_FORM_block4:
		return end - b >= 4 ? 4 + (int64_t)pk__dwarf_le(b, 4) : -1;
	case DW_FORM_block: case DW_FORM_exprloc:
		return uleb(&p, end, &n) && n <= (uint64_t)(end - p) ? (p - b) + (int64_t)n : -1;
	default:
		return -1;
	}
}

int pk__cu_stmt_list(const struct pk__cu_head *h, const unsigned char *spec, const unsigned char *spec_end,
		     uint64_t *stmt)
{
	const unsigned char *b = h->die;
	uint64_t attr, form, skip;

	for (;;) {
		int64_t n;

		if (!uleb(&spec, spec_end, &attr) || !uleb(&spec, spec_end, &form))
			return -1;
		if (!attr && !form)
			return 0;	/* no line table */
		if (form == DW_FORM_implicit_const && !uleb(&spec, spec_end, &skip))
			return -1;
		if ((n = form_size(form, b, h->end, h)) < 0 || n > h->end - b)
			return -1;
		if (attr == DW_AT_stmt_list) {
			if (form != DW_FORM_sec_offset && form != DW_FORM_data4 && form != DW_FORM_data8)
				return -1;
			*stmt = pk__dwarf_le(b, (unsigned int)n);
			return 1;
		}
		b += n;
	}
}
