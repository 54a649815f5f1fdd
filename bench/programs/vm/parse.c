/* parse.c - text to instructions, with labels resolved in a second pass. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"

static const char *const names[OP_COUNT] = {
    "push", "load", "store", "add", "sub", "mul", "div", "mod", "neg", "lt",
    "eq", "dup", "swap", "drop", "jz", "jmp", "call", "ret", "print", "halt"};

const char *vm_opname(enum opcode op) {
  return op < OP_COUNT ? names[op] : "?";
}

struct label {
  char name[32];
  int target;
};

struct fixup {
  char name[32];
  int insn, line;
};

/* Same name as in exec.c: a static function per object file. */
static int is_blank(const char *s) {
  while (*s && isspace((unsigned char)*s))
    s++;
  return *s == 0 || *s == '#';
}

static int emit(struct program *p, enum opcode op, int64_t arg) {
  if (p->n == p->cap) {
    int cap = p->cap ? p->cap * 2 : 64;
    struct insn *c = realloc(p->code, (size_t)cap * sizeof *c);
    if (!c)
      return -1;
    p->code = c;
    p->cap = cap;
  }
  p->code[p->n].op = op;
  p->code[p->n].arg = arg;
  p->n++;
  return 0;
}

int vm_parse(const char *text, struct program *p, char *err, int errlen) {
  struct label labels[256];
  struct fixup fixups[1024];
  int n_labels = 0, n_fixups = 0, line = 0;
  const char *s = text;
  while (*s) {
    char buf[128];
    const char *eol = strchr(s, '\n');
    size_t len = eol ? (size_t)(eol - s) : strlen(s);
    line++;
    if (len >= sizeof buf) {
      snprintf(err, (size_t)errlen, "line %d: too long", line);
      return -1;
    }
    memcpy(buf, s, len);
    buf[len] = 0;
    s += len + (eol != NULL);
    if (is_blank(buf))
      continue;
    char word[32], argtext[64] = "";
    if (sscanf(buf, " %31s %63s", word, argtext) < 1)
      continue;
    size_t wl = strlen(word);
    if (word[wl - 1] == ':') { /* a label */
      if (n_labels == 256) {
        snprintf(err, (size_t)errlen, "line %d: too many labels", line);
        return -1;
      }
      word[wl - 1] = 0;
      snprintf(labels[n_labels].name, sizeof labels[0].name, "%s", word);
      labels[n_labels++].target = p->n;
      continue;
    }
    int op;
    for (op = 0; op < OP_COUNT; op++)
      if (strcmp(word, names[op]) == 0)
        break;
    if (op == OP_COUNT) {
      snprintf(err, (size_t)errlen, "line %d: unknown instruction '%s'", line,
               word);
      return -1;
    }
    int64_t arg = 0;
    if (op == OP_PUSH || op == OP_LOAD || op == OP_STORE) {
      char *end;
      arg = strtoll(argtext, &end, 10);
      if (!argtext[0] || *end) {
        snprintf(err, (size_t)errlen, "line %d: %s needs a number", line,
                 word);
        return -1;
      }
      if (op != OP_PUSH && (arg < 0 || arg >= VM_REGS)) {
        snprintf(err, (size_t)errlen, "line %d: no register %lld", line,
                 (long long)arg);
        return -1;
      }
    } else if (op == OP_JZ || op == OP_JMP || op == OP_CALL) {
      if (!argtext[0] || n_fixups == 1024) {
        snprintf(err, (size_t)errlen, "line %d: %s needs a label", line, word);
        return -1;
      }
      snprintf(fixups[n_fixups].name, sizeof fixups[0].name, "%s", argtext);
      fixups[n_fixups].insn = p->n;
      fixups[n_fixups++].line = line;
    }
    if (emit(p, (enum opcode)op, arg) < 0) {
      snprintf(err, (size_t)errlen, "out of memory");
      return -1;
    }
  }
  for (int i = 0; i < n_fixups; i++) {
    int k;
    for (k = 0; k < n_labels; k++)
      if (strcmp(labels[k].name, fixups[i].name) == 0)
        break;
    if (k == n_labels) {
      snprintf(err, (size_t)errlen, "line %d: no label '%s'", fixups[i].line,
               fixups[i].name);
      return -1;
    }
    p->code[fixups[i].insn].arg = labels[k].target;
  }
  return 0;
}
