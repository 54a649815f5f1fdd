// C++ under -flto across two files: constructors inlined from their
// abstract origin (which has no assembler name once GCC has freed the
// front end's data: GCC crashed in xprof's collect pass), a virtual call,
// std::thread, an exception.
// RUN: %corpus %s | FileCheck %s
// corpus: shape=separate
// corpus: flags=-O2 -flto
// corpus: sources=lto-cxx-2.cpp
// corpus: link=-pthread
// corpus: train=300
// corpus: run=700
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 2 object files, 29 procedures (21 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 14 procedures (13 ran)
// CHECK: clang: use: as plain
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "lto-cxx.h"

struct Circle : Shape {
  int r;
  explicit Circle(int radius) : r(radius) {}
  long area() const override { return 3L * r * r; }
};

static long check(long v) {
  if (v < 0)
    throw std::runtime_error("negative");
  return v;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 0; i < n; i++)
    shapes.emplace_back(i % 4 ? static_cast<Shape *>(new Square(i)) : new Circle(i));
  Counter c(0);
  std::thread t([&] {
    for (const auto &s : shapes)
      c.add((int)(s->area() % 1000));
  });
  t.join();
  long sum = 0;
  try {
    sum = check(c.total);
  } catch (const std::exception &e) {
    std::printf("caught %s\n", e.what());
  }
  std::printf("%d shapes, total %ld, sum %ld\n", n, c.total, sum);
  return 0;
}
