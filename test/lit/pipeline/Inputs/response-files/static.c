/* No symbol at all: a thousand links to this object link together. */
typedef int nothing;
