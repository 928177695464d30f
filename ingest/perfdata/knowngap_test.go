package perfdata

import "testing"

// TestKnownGap: only a PLT entry named on one side, at the same address
// in the same file, is a known gap; a C++ name with a space in it is read
// whole.
func TestKnownGap(t *testing.T) {
	for _, c := range []struct {
		got, want string
		gap       bool
	}{
		{"\t           9a000 [unknown] (/lib/libstdc++.so.6)", "\t           9a000 operator delete@plt+0x0 (/lib/libstdc++.so.6)", true},
		{"\t    1000 _init+0x30 (/tmp/prog)", "\t    1000 PyThreadState_Get@plt+0x0 (/tmp/prog)", true},
		{"\t    1000 [unknown] (/tmp/prog)", "\t    1004 puts@plt+0x0 (/tmp/prog)", false},
		{"\t    1000 [unknown] (/tmp/prog)", "\t    1000 puts@plt+0x0 (/tmp/other)", false},
		{"\t    1000 [unknown] (/tmp/prog)", "\t    1000 operator delete+0x4 (/tmp/prog)", false},
		{"\t    1030 rand@plt+0x0 (/tmp/prog)", "\t    1030 _init+0x30 (/tmp/prog)", true},
		{"\t    1030 rand@plt+0x0 (/tmp/prog)", "\t    1030 _init+0x30 (/tmp/other)", false},
	} {
		if got := knownGap(c.got, c.want); got != c.gap {
			t.Errorf("knownGap(%q, %q) = %v, want %v", c.got, c.want, got, c.gap)
		}
	}
}
