package frame

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestResourcesNamed: IRQ rows carry their handler's name (IRQ_names,
// its last in the trace) and soft IRQ rows their vector's, in numeric
// order; an IRQ without a name keeps its number alone (issue 30 item 5).
func TestResourcesNamed(t *testing.T) {
	h := core.NewMemHistory(0)
	at := h.Attributes()
	for _, p := range [][]string{{core.AttrCPUs, "0", core.AttrIRQs, "32"}, {core.AttrCPUs, "0", core.AttrIRQs, "4"},
		{core.AttrCPUs, "0", core.AttrIRQs, "5"}, {core.AttrCPUs, "0", core.AttrSoftIRQs, "9"}, {core.AttrCPUs, "0", core.AttrSoftIRQs, "1"}} {
		at.AddPath(p...)
	}
	name := func(irq, v string, at2 core.Time) {
		if err := h.Modify(at.AddPath(core.AttrIRQNames, irq), at2, core.String(v)); err != nil {
			t.Fatal(err)
		}
	}
	name("32", "virtio0-old", 10)
	name("32", "virtio0-input", 20) // renamed: the last name
	name("4", "ttyS0", 30)
	if err := h.Close(100); err != nil {
		t.Fatal(err)
	}
	tr := BuildResources(h)
	var got []string
	for i := range tr.Rows.Len() {
		got = append(got, tr.Node(int32(i)).Label)
	}
	want := []string{"CPU 0", "IRQ 4 ttyS0", "IRQ 5", "IRQ 32 virtio0-input", "SoftIRQ 1 TIMER", "SoftIRQ 9 RCU"}
	if len(got) != len(want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %q, want %q (all: %q)", i, got[i], want[i], got)
		}
	}
}
