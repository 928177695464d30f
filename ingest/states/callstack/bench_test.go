package callstack

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// BenchmarkCallStack: one entry or exit per op, on 4 threads nesting
// 8 deep, in steady state (every attribute exists).
func BenchmarkCallStack(b *testing.B) {
	var events []core.Event
	for i := range 1 << 10 {
		tid := int64(i / 16 % 4)
		if i%16 < 8 {
			events = append(events, cyg(0, cygEntry, tid, int64(0x400000+i%16)))
		} else {
			events = append(events, cyg(0, cygExit, tid, 0))
		}
	}
	h := core.NewMemHistory(0)
	a := New(&nullSink{tree: h.Attributes()})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ev := &events[i&(len(events)-1)]
		ev.Time = core.Time(i)
		if err := a.Handle(ev); err != nil {
			b.Fatal(err)
		}
	}
}

// nullSink keeps current values only.
type nullSink struct {
	tree *core.AttributeTree
	cur  []core.Value
}

func (s *nullSink) Attributes() *core.AttributeTree { return s.tree }
func (s *nullSink) Modify(k core.Key, t core.Time, v core.Value) error {
	for int(k) >= len(s.cur) {
		s.cur = append(s.cur, core.Null())
	}
	s.cur[k] = v
	return nil
}
func (s *nullSink) Value(k core.Key) core.Value {
	if int(k) < len(s.cur) {
		return s.cur[k]
	}
	return core.Null()
}
