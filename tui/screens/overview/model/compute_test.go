package model

import (
	"strings"
	"testing"
)

// TestPlanOf: over budget the slices are reduced (then, for the temporal
// overview, rows summed into their groups), and the note says so.
func TestPlanOf(t *testing.T) {
	p := PlanOf(false, 50_000, 256, 257, 100, 20, 5e8)
	if p.Slices != 100 || p.Coarse || p.Note != "" {
		t.Errorf("the 50 k-thread benchmark trace must fit the default budget: %+v", p)
	}
	p = PlanOf(false, 50_000, 256, 257, 100, 20, 1e8)
	if p.Slices >= 100 || p.Slices < MinSlices || p.Coarse || !strings.Contains(p.Note, "|T| cut from 100") {
		t.Errorf("over budget: %+v", p)
	}
	p = PlanOf(false, 1_000_000, 256, 257, 100, -1, 1e8)
	if !p.Coarse || !strings.Contains(p.Note, "rows summed into 256 groups") {
		t.Errorf("far over budget: %+v", p)
	}
	p = PlanOf(true, 50_000, 256, 257, 30, 20, 1e7)
	if p.Slices != MinSlices || p.Coarse {
		t.Errorf("spatiotemporal over budget: %+v", p)
	}
}
