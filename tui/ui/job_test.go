package ui

import (
	"context"
	"testing"
)

// TestJobDropsSupersededRuns: a new run cancels the previous one, whose
// reports are no longer current; Finish keeps the run's reports current
// and releases its context; Stop makes them stale.
func TestJobDropsSupersededRuns(t *testing.T) {
	var j Job
	ctx1, seq1 := j.Start(context.Background())
	if !j.Running() || !j.Current(seq1) {
		t.Fatal("a started run is not current")
	}
	ctx2, seq2 := j.Start(context.Background())
	if ctx1.Err() == nil {
		t.Error("the superseded run's context is not cancelled")
	}
	if j.Current(seq1) || !j.Current(seq2) || j.Tag() != seq2 {
		t.Errorf("current: run 1 %v, run 2 %v (tag %d, runs %d %d)", j.Current(seq1), j.Current(seq2), j.Tag(), seq1, seq2)
	}
	j.Finish()
	if ctx2.Err() == nil || j.Running() || !j.Current(seq2) {
		t.Errorf("after Finish: context %v, running %v, current %v", ctx2.Err(), j.Running(), j.Current(seq2))
	}
	j.Stop()
	if j.Current(seq2) {
		t.Error("a stopped run's late report is still current")
	}
}
