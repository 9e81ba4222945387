/* SPDX-License-Identifier: MIT */
/* placeholder: being written */
typedef int pk_placeholder_attr_print;
