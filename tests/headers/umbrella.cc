// SPDX-License-Identifier: MIT
// The umbrella header compiled as C++ and linked against libperfkit: the
// link fails unless every declaration sits inside the headers' extern "C"
// guards (C++ would otherwise look for mangled names), and the calls check
// that a C++ caller gets the library's answers.
#include "perfkit.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

int main()
{
	if (std::strlen(pk_version()) == 0)
		return 1;
	int *cpus = nullptr;
	size_t nr = 0;
	if (pk_cpus_parse("0-2,5", &cpus, &nr) != 0 || nr != 4 || cpus[3] != 5)
		return 2;
	free(cpus);
	if (pk_cpus_parse("0-x", &cpus, &nr) != -EINVAL || pk_last_error()->code != -EINVAL)
		return 3;
	return 0;
}
