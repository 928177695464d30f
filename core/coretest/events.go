package coretest

import (
	"errors"
	"io"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// ForEachEvent calls fn with every event of src, in order, and fails tb on
// a read error. The event is valid only during the call (sources reuse it).
func ForEachEvent(tb testing.TB, src core.Source, fn func(ev *core.Event)) {
	tb.Helper()
	for {
		ev, err := src.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			tb.Fatal(err)
		}
		fn(ev)
	}
}
