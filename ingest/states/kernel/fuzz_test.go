package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// fuzzClasses returns the event classes of a layout: those of a simulated
// stream plus the events the simulation does not produce.
func fuzzClasses(layout *Layout) []*core.EventClass {
	s := &stream{classes: map[string]*core.EventClass{}}
	for _, ev := range benchStream(layout, 3000) {
		if _, ok := s.classes[ev.Class.Name]; !ok {
			c := *ev.Class
			c.ID = len(s.classes)
			s.classes[c.Name] = &c
		}
	}
	s.add(0, 0, "lttng_statedump_process_state", "tid", 0, "pid", 0, "ppid", 0, "name", "", "status", 0, "cpu", 0)
	s.add(0, 0, "sched_pi_setprio", "tid", 0, "pid", 0, "newprio", 0)
	s.add(0, 0, "sched_migrate_task", "tid", 0, "pid", 0, "dest_cpu", 0)
	s.add(0, 0, "raw_syscalls:sys_enter", "perf_tid", 0, "id", 0)
	s.add(0, 0, "sys_enter", "context.tid", 0, "NR", 0)
	for _, name := range []string{"hrtimer_expire_entry", "hrtimer_expire_exit", "timer_hrtimer_expire_entry",
		"timer_hrtimer_expire_exit", "timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit"} {
		s.add(0, 0, name, "hrtimer", 0)
	}
	return s.classList()
}

// FuzzKernelAnalysis decodes the input as a stream of events of known
// classes with arbitrary field values (kinds included) and checks that the
// analysis neither panics nor lets its mirrors drift from the sink, and
// that every attribute tiles the trace.
func FuzzKernelAnalysis(f *testing.F) {
	f.Add([]byte{0, 3, 0, 1, 5, 0, 2, 42, 0, 1, 1, 9, 1, 4, 's', 'h'})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{2, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})
	f.Add([]byte{3, 255, 255, 255, 128, 1, 2, 'R', '+', 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7})
	layouts := []*Layout{LayoutLTTng27, LayoutLTTng20, LayoutPerf, LayoutFtrace}
	classes := make([][]*core.EventClass, len(layouts))
	for i, l := range layouts {
		classes[i] = fuzzClasses(l)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		li := int(data[0]) % len(layouts)
		r := fuzzReader{data: data[1:]}
		h := core.NewMemHistory(0)
		a := New(h, layouts[li])
		now := core.Time(0)
		for n := 0; n < 200 && r.more(); n++ {
			c := classes[li][int(r.byte())%len(classes[li])]
			now += core.Time(r.byte() % 4)
			cpu := int32(r.byte()%8) - 1
			if cpu == 6 {
				cpu = 1 << 20
			}
			ev := core.Event{Time: now, CPU: cpu, Class: c, Fields: make([]core.Field, len(c.Fields))}
			for i := range ev.Fields {
				ev.Fields[i] = r.field()
			}
			if err := a.Handle(&ev); err != nil {
				t.Fatal(err)
			}
			checkMirrors(t, a, h)
		}
		if err := h.Close(now + 1); err != nil {
			t.Fatal(err)
		}
		coretest.CheckTiling(t, h.Intervals(), h.Attributes().Len(), 0, now+1)
	})
}

// fuzzReader hands out fuzz input bytes, zeros after the end.
type fuzzReader struct {
	data []byte
	pos  int
}

func (r *fuzzReader) more() bool { return r.pos < len(r.data) }

func (r *fuzzReader) byte() byte {
	if r.pos >= len(r.data) {
		r.pos++
		return 0
	}
	b := r.data[r.pos]
	r.pos++
	return b
}

// field reads a kind byte, then a small integer, a wide one, or a short
// string.
func (r *fuzzReader) field() core.Field {
	switch k := r.byte(); k % 8 {
	case 0:
		return core.Field{}
	case 1, 2, 3:
		return core.Field{Kind: core.FieldInt, Int: int64(int8(r.byte()))}
	case 4:
		v := int64(0)
		for range 8 {
			v = v<<8 | int64(r.byte())
		}
		return core.Field{Kind: core.FieldUint, Int: v}
	case 5:
		return core.Field{Kind: core.FieldEnum, Int: int64(r.byte()), Bytes: []byte("E")}
	default:
		n := int(r.byte() % 20)
		b := make([]byte, 0, n)
		for range n {
			b = append(b, r.byte())
		}
		return core.Field{Kind: core.FieldString, Bytes: b}
	}
}
