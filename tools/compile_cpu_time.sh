#!/bin/sh
# A compiler (and linker) launcher that records the CPU time of every
# compile: where a build's time goes, per translation unit, independent of
# what else the machine is running (docs/reliability.md "Build cost").
#
#   CCACHE_DISABLE=1 cmake --preset ci -B build/cost \
#     -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/tools/compile_cpu_time.sh \
#     -DCMAKE_C_COMPILER_LAUNCHER=$PWD/tools/compile_cpu_time.sh \
#     -DCMAKE_CUDA_COMPILER_LAUNCHER=$PWD/tools/compile_cpu_time.sh
#   COMPILE_CPU_TIME_LOG=/tmp/cost.log nice ninja -C build/cost
#   sort -t"$(printf '\t')" -k1,1 -gr /tmp/cost.log | head
#
# Each line of the log: user seconds, system seconds, wall seconds, output.
# Needs /usr/bin/time (Debian package time).
out=unknown
prev=
for arg in "$@"; do
  [ "$prev" = "-o" ] && out=$arg
  prev=$arg
done
exec /usr/bin/time -a -o "${COMPILE_CPU_TIME_LOG:-compile_cpu_time.log}" -f "%U	%S	%e	$out" "$@"
