// Shared by lto-cxx.cpp and lto-cxx-2.cpp.
struct Counter {
  long total;
  explicit Counter(int start);
  void add(int v);
};

struct Shape {
  virtual ~Shape();
  virtual long area() const = 0;
};

struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  long area() const override;
};
