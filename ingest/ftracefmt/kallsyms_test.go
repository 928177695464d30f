package ftracefmt

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestParseHexMatchesParseUint: parseHex is strconv.ParseUint(a, 16, 64)
// on random and edge-case strings.
func TestParseHexMatchesParseUint(t *testing.T) {
	r := coretest.Rand(t)
	cases := []string{"", "0", "f", "F", "ffffffffffffffff", "10000000000000000", "0000000000000000000ff", "0x10", "-1", "+1", "g", "1_0", " 1"}
	const digits = "0123456789abcdefABCDEFxg_ "
	for range 20000 {
		b := make([]byte, r.IntN(22))
		for i := range b {
			b[i] = digits[r.IntN(len(digits))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		want, err := strconv.ParseUint(c, 16, 64)
		got, ok := parseHex(c)
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("parseHex(%q) = %d, %v; ParseUint: %d, %v", c, got, ok, want, err)
		}
	}
}

// TestParseKallsyms reads shuffled random symbol lines (with modules,
// types, bad lines and duplicate addresses) and checks the table against
// a stable sort of the lines that parse.
func TestParseKallsyms(t *testing.T) {
	r := coretest.Rand(t)
	for range 200 {
		type sym struct {
			addr uint64
			name string
		}
		var want []sym
		var b strings.Builder
		for i := range r.IntN(300) {
			addr := uint64(r.IntN(50)) << 12
			name := fmt.Sprintf("f%d", i)
			switch r.IntN(6) {
			case 0:
				b.WriteString("not a symbol line\n")
				continue
			case 1:
				fmt.Fprintf(&b, "%016x t %s\t[mod%d]\n", addr, name, i)
			default:
				fmt.Fprintf(&b, "%016x T %s\n", addr, name)
			}
			if addr != 0 {
				want = append(want, sym{addr, name})
			}
		}
		sort.SliceStable(want, func(i, j int) bool { return want[i].addr < want[j].addr })
		s := ParseKallsyms([]byte(b.String()))
		if len(s.addrs) != len(want) || len(s.names) != len(want) {
			t.Fatalf("%d symbols, want %d", len(s.addrs), len(want))
		}
		for i, w := range want {
			if s.addrs[i] != w.addr || s.names[i] != w.name {
				t.Fatalf("symbol %d = %x %s, want %x %s", i, s.addrs[i], s.names[i], w.addr, w.name)
			}
		}
	}
}
