// SPDX-License-Identifier: MIT
// cxx.cc - a C++ workload for symbol tests: its time goes to a member of a
// class template in a namespace, whose mangled name perf shows demangled
// without parameters ("ns::W<long>::spin").
#include <cstdio>

namespace ns {
template <class T> struct W {
	__attribute__((noinline)) static T spin(T n)
	{
		volatile T x = 0;

		for (T i = 0; i < n; i++)
			x += i;
		return x;
	}
};
} // namespace ns

__attribute__((noinline)) long work(long n, int)
{
	return ns::W<long>::spin(n);
}

int main()
{
	long s = 0;

	for (int i = 0; i < 30; i++)
		s += work(10000000, 1);
	std::printf("%ld\n", s);
	return 0;
}
