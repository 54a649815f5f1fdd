# gen.sh SIZE: print a VM program whose run time grows with SIZE: a prime
# sieve by trial division, Collatz lengths, and a call-heavy loop.
size=${1:-100}
cat <<PROG
# primes below $((size * 20)) by trial division
  push 2
  store 0
outer:
  load 0
  push $((size * 20))
  lt
  jz collatz
  push 2
  store 1
  push 1
  store 2
inner:
  load 1
  load 1
  mul
  load 0
  swap
  lt
  push 0
  eq
  jz inner_done
  load 0
  load 1
  mod
  push 0
  eq
  jz next_div
  push 0
  store 2
  jmp inner_done
next_div:
  load 1
  push 1
  add
  store 1
  jmp inner
inner_done:
  load 2
  jz not_prime
  load 3
  push 1
  add
  store 3
not_prime:
  load 0
  push 1
  add
  store 0
  jmp outer
collatz:
  load 3
  print
  push 1
  store 4
cz_outer:
  load 4
  push $((size * 10))
  lt
  jz calls
  load 4
  store 5
cz_inner:
  load 5
  push 1
  eq
  push 0
  eq
  jz cz_next
  load 5
  push 2
  mod
  jz cz_even
  load 5
  push 3
  mul
  push 1
  add
  store 5
  jmp cz_count
cz_even:
  load 5
  push 2
  div
  store 5
cz_count:
  load 6
  push 1
  add
  store 6
  jmp cz_inner
cz_next:
  load 4
  push 1
  add
  store 4
  jmp cz_outer
calls:
  load 6
  print
  push 0
  store 7
call_loop:
  load 7
  push $((size * 5))
  lt
  jz done
  call square_sum
  load 7
  push 1
  add
  store 7
  jmp call_loop
done:
  load 8
  print
  halt
square_sum:
  load 7
  dup
  mul
  load 8
  add
  push 1000003
  mod
  store 8
  ret
PROG
