// C++ static objects in two translation units, a function-local static,
// and a thread_local object whose destructor runs at thread end.
// RUN: %corpus %s | FileCheck %s
// corpus: sources=static-objects-2.cpp
// corpus: link=-pthread
// CHECK: gcc: training: 1 run as plain; profile: 1 program, 2 object files, 22 procedures (21 ran)
// CHECK: gcc: use: as plain
// CHECK: clang: training: 1 run as plain; profile: 1 program, 2 object files, 15 procedures (13 ran)
// CHECK: clang: use: as plain
#include <cstdio>
#include <thread>

int registry_size();
void registry_add(int);

struct Registrar {
  int id;
  explicit Registrar(int i) : id(i) { registry_add(i); }
  ~Registrar() { std::printf("bye %d\n", id); }
};

static Registrar a(1), b(2);

struct PerThread {
  int uses = 0;
  ~PerThread() { std::printf("thread used %d\n", uses); }
};
thread_local PerThread mine;

static int counted() {
  static int calls = registry_size() * 10;
  return ++calls;
}

int main() {
  std::thread t([] {
    for (int i = 0; i < 5; i++)
      mine.uses++;
  });
  t.join();
  int last = 0;
  for (int i = 0; i < 3; i++)
    last = counted();
  std::printf("registry %d, counted %d\n", registry_size(), last);
  return 0;
}
