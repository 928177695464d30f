package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// irq_handler_entry's handler name goes to IRQ_names/<irq>, written only
// when first seen or changed (repeats add no interval), in the LTTng and
// the kernel's own (ftrace, perf, trace.dat) layouts alike.
func TestIRQNamesRecorded(t *testing.T) {
	for _, l := range []*Layout{LayoutLTTng27, LayoutFtrace} {
		t.Run(l.Name(), func(t *testing.T) {
			s := newStream().switchTo(10, 0, "swapper/0", 0, 0, "bash", 42)
			for i, e := range []struct {
				irq  int
				name string
			}{{30, "i915"}, {30, "i915"}, {5, "eth0"}, {30, "i915"}, {5, "eth0-rx\x00junk"}, {30, "i915"}} {
				ts := core.Time(20 + 4*i)
				s.add(ts, 0, "irq_handler_entry", "irq", e.irq, "name", e.name).
					add(ts+1, 0, "irq_handler_exit", "irq", e.irq, "ret", 1)
			}
			h := s.run(t, l, 100)
			want{
				"IRQ_names/30": {iv(0, 19, null), iv(20, 100, str("i915"))},
				"IRQ_names/5":  {iv(0, 27, null), iv(28, 35, str("eth0")), iv(36, 100, str("eth0-rx"))},
				"IRQ_names":    {iv(0, 100, null)},
			}.check(t, h)
		})
	}
}
