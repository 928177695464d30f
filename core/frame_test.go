package core

import "testing"

func TestFrameText(t *testing.T) {
	for _, c := range []struct {
		v    Value
		want string
	}{
		{Int64(0x401136), "0x401136"},
		{Int64(0xABCDEF), "0xabcdef"},
		{Int64(-1), "0xffffffffffffffff"},
		{Int32(16), "0x10"},
		{String("main"), "main"},
		{Null(), "null"},
	} {
		if got := FrameText(c.v); got != c.want {
			t.Errorf("FrameText(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
