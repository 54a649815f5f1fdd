/*
 * response_files.h - `@FILE` arguments, as GCC and clang read them, so
 * that the drivers see every option of a command, including those a
 * build system put in a response file (Ninja's and Bazel's links, Meson
 * and CMake when a command line is long).  See response_files.c.
 */
#ifndef XPROF_RESPONSE_FILES_H
#define XPROF_RESPONSE_FILES_H

/* Replace each `@FILE` of argv[1..] whose FILE can be read by the
 * arguments it holds, recursively (a FILE that cannot be read stays an
 * argument, as the compilers keep it).  On success *argc and *argv are a
 * new vector (malloc'd, NULL-terminated; the original is not freed) and
 * 0 is returned; -1 (errno set) when memory runs out or files nest
 * deeper than any real build nests them. */
int expand_response_files(int *argc, char ***argv);

/* The arguments of argv[first..] written to a new temporary response file
 * in GCC's syntax, for a command line too long to pass as it is;
 * returns its name (malloc'd), or NULL with errno set. */
char *write_response_file(char *const *argv, int first);

#endif
