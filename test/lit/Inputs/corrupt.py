"""Damage a file on purpose, for the tests of error messages.

usage: corrupt.py FILE flip OFFSET [BIT]   flip one bit (default bit 0)
       corrupt.py FILE truncate LENGTH     keep the first LENGTH bytes
       corrupt.py FILE set OFFSET HEX      overwrite bytes at OFFSET
"""
import sys

path, op = sys.argv[1], sys.argv[2]
data = bytearray(open(path, "rb").read())
if op == "flip":
    off = int(sys.argv[3], 0)
    bit = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    data[off] ^= 1 << bit
elif op == "truncate":
    del data[int(sys.argv[3], 0):]
elif op == "set":
    off = int(sys.argv[3], 0)
    new = bytes.fromhex(sys.argv[4])
    data[off:off + len(new)] = new
else:
    sys.exit("unknown operation " + op)
open(path, "wb").write(data)
