// SPDX-License-Identifier: MIT
// cxx-demangle.cc - a C++ program whose hot functions have namespaces,
// templates and overloads: test_demangle_params.sh and
// test_report_flags4.sh record it and compare perfkit's names with perf's.
#include <cstdlib>
namespace geo {
struct Shape {
	volatile long acc;
	__attribute__((noinline)) long area(int scale, const char *tag) { for (int i = 0; i < scale; i++) acc += i ^ tag[0]; return acc; }
};
}
template <typename T> __attribute__((noinline)) T spin(T n) { volatile T x = 0; for (T i = 0; i < n; i++) x += i; return x; }
__attribute__((noinline)) long work(int n) { return spin<long>(n); }
__attribute__((noinline)) double work(double d, unsigned n) { geo::Shape s{0}; return d + s.area((int)n, "x"); }
int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	double r = 0;
	for (long k = 0; k < rounds; k++)
		r += work(200000) + work(1.5, 200000u);
	return r == 42.0;
}
