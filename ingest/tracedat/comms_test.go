package tracedat

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestReportLearnsComms: as trace-cmd's sched plugins do, a sched_switch
// or sched_wakeup names, from then on, the pids it shows that no saved
// cmdline names (a thread born during the recording: trace-cmd printed
// "tracetui-17340" where tracetui printed "<...>-17340"), and never
// renames a pid the cmdlines name.
func TestReportLearnsComms(t *testing.T) {
	s := &Source{comms: map[int32][]byte{10: []byte("bash")}}
	sw := &core.EventClass{Name: "sched_switch", Fields: []string{"prev_comm", "prev_pid", "next_comm", "next_pid"}}
	wk := &core.EventClass{Name: "sched_wakeup", Fields: []string{"comm", "pid"}}
	str := func(v string) core.Field { return core.Field{Kind: core.FieldString, Bytes: []byte(v)} }
	num := func(v int64) core.Field { return core.Field{Kind: core.FieldInt, Int: v} }
	s.learnComms(&core.Event{Class: sw, Fields: []core.Field{str("other"), num(10), str("worker"), num(17340)}})
	s.learnComms(&core.Event{Class: wk, Fields: []core.Field{str("sleeper"), num(42)}})
	for pid, want := range map[int32]string{10: "bash", 17340: "worker", 42: "sleeper"} {
		if got := string(s.comm(pid)); got != want {
			t.Errorf("pid %d: %q, want %q", pid, got, want)
		}
	}
	if got := string(s.comm(7)); got != "<...>" {
		t.Errorf("an unnamed pid: %q", got)
	}
}
