package core

import "testing"

func TestThreadNameNamesTheIdleThreadPerCPU(t *testing.T) {
	for _, c := range []struct {
		tid  int64
		cpu  int32
		want string
	}{{0, 0, "0_0"}, {0, 3, "0_3"}, {1, 3, "1"}, {4242, 0, "4242"}, {-1, 0, "-1"}} {
		if got := ThreadName(c.tid, c.cpu); got != c.want {
			t.Errorf("ThreadName(%d, %d) = %q, want %q", c.tid, c.cpu, got, c.want)
		}
	}
}
