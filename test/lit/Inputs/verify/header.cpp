// A header compiled on its own, as header tests do: declarations and
// inline functions nobody calls, so the object has no code.
#include "shapes.h"
