//go:build unix

package service_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) this process has used, so
// that a benchmark on a shared machine can report its work apart from the
// time it waited for a CPU. SQLite runs in the process; PostgreSQL's
// work is not counted.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
