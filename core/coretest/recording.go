package coretest

import (
	"os"
	"path/filepath"
	"testing"
)

// RecordingsEnv names the environment variable that points at a folder of
// real captures too big to commit (a `go build` recorded as ftrace text
// and trace.dat, say), which some tests and benchmarks read when present.
const RecordingsEnv = "TRACETUI_RECORDINGS"

// Recording returns the path of the capture name in $TRACETUI_RECORDINGS,
// or skips the test with a message saying how to provide it.
func Recording(tb testing.TB, name string) string {
	tb.Helper()
	if p := RecordingOrEmpty(name); p != "" {
		return p
	}
	tb.Skipf("recording %s not found: set %s to a folder holding it (record one with `tracetui record` or trace-cmd)", name, RecordingsEnv)
	return ""
}

// RecordingOrEmpty returns the path of the capture name in
// $TRACETUI_RECORDINGS, or "" when it is not there.
func RecordingOrEmpty(name string) string {
	dir := os.Getenv(RecordingsEnv)
	if dir == "" {
		return ""
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}
