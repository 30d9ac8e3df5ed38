//go:build !unix

package service_test

import "time"

// processCPU is unknown here (0).
func processCPU() time.Duration { return 0 }
