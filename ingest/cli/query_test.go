package cli

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestValueText: `query` quotes strings and prints the addresses of
// call-stack frames as the browser does (core.FormatAddress), other
// numbers as they are.
func TestValueText(t *testing.T) {
	for _, c := range []struct {
		v      core.Value
		frames bool
		want   string
	}{
		{core.String("main"), true, `"main"`},
		{core.Int64(0x40472b), true, "0x40472b"},
		{core.Int64(0x40472b), false, "4212523"},
		{core.Null(), true, "null"},
		{core.Int32(2), false, "2"},
	} {
		if got := valueText(c.v, c.frames); got != c.want {
			t.Errorf("valueText(%v, %v) = %s, want %s", c.v, c.frames, got, c.want)
		}
	}
}
