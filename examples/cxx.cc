// SPDX-License-Identifier: MIT
// cxx.cc - a C++ program using the C API: the library's objects held in
// std::unique_ptr with their free functions, counting a region that
// fills a std::vector.
#include <perfkit.h>
#include <cstdio>
#include <memory>
#include <vector>

namespace {
struct region_free {
	void operator()(pk_region *r) const { pk_region_free(r); }
};
using region_ptr = std::unique_ptr<pk_region, region_free>;
} // namespace

int main()
{
	pk_region *raw = nullptr;

	if (pk_region_open("task-clock,page-faults", nullptr, &raw) < 0) {
		std::fprintf(stderr, "%s\n", pk_last_error()->why);
		return 1;
	}
	region_ptr r(raw);
	std::vector<pk_count> c(pk_region_nr(r.get()));
	for (auto &x : c)
		x.size = sizeof(x);

	pk_region_start(r.get());
	std::vector<long> work(1 << 21, 1);		// 16 MiB: 4096 fresh pages
	pk_region_stop(r.get());
	if (pk_region_read(r.get(), c.data(), c.size()) < 0)
		return std::fprintf(stderr, "%s\n", pk_last_error()->why), 1;
	for (size_t i = 0; i < c.size(); i++)
		std::printf("%s %llu\n", pk_region_name(r.get(), i), (unsigned long long)c[i].value);
	std::printf("work %ld\n", work[4096]);
	return 0;
}
