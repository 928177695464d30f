package cli

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/tracetui/tracetui/ingest/trace"
)

// FrameStep is one key of `bench frames`: the key, the milliseconds from
// the key to its rendered frame, and the history nodes its queries read.
type FrameStep struct {
	Key   string  `json:"key"`
	MS    float64 `json:"ms"`
	Nodes int     `json:"nodes"`
}

// FrameBench replays the browser's navigation script on an opened trace
// (closing it) and returns one step per key, the first frame first.
type FrameBench func(ctx context.Context, t *trace.Trace) ([]FrameStep, error)

// FramesResult is the output of `bench frames --json`.
type FramesResult struct {
	Frames  int         `json:"frames"`
	P50MS   float64     `json:"p50_ms"`
	P99MS   float64     `json:"p99_ms"`
	MaxMS   float64     `json:"max_ms"`
	FirstMS float64     `json:"first_ms"`
	Steps   []FrameStep `json:"steps"`
}

// benchFrames runs the frames benchmark on t and prints its steps and
// percentiles.
func (e *Env) benchFrames(t *trace.Trace, asJSON bool) error {
	if e.frames == nil {
		t.Close()
		return fmt.Errorf("bench frames: this build has no browser")
	}
	ctx := e.Context()
	e.Browsing()
	steps, err := e.frames(ctx, t)
	if err != nil {
		return fmt.Errorf("replaying the navigation script: %w", err)
	}
	res := framesResult(steps)
	if asJSON {
		return writeJSON(e.Stdout, res)
	}
	for _, s := range steps {
		fmt.Fprintf(e.Stdout, "%-8s %8.2f ms %6d nodes\n", s.Key, s.MS, s.Nodes)
	}
	fmt.Fprintf(e.Stdout, "%d frames: first %.2f ms, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		res.Frames, res.FirstMS, res.P50MS, res.P99MS, res.MaxMS)
	return nil
}

// framesResult summarises the steps: nearest-rank percentiles over every
// step, the first frame included.
func framesResult(steps []FrameStep) FramesResult {
	res := FramesResult{Frames: len(steps), Steps: steps}
	if len(steps) == 0 {
		return res
	}
	ms := make([]float64, len(steps))
	for i, s := range steps {
		ms[i] = s.MS
	}
	res.FirstMS = ms[0]
	slices.Sort(ms)
	rank := func(p float64) float64 { return ms[max(int(math.Ceil(p*float64(len(ms))))-1, 0)] }
	res.P50MS, res.P99MS, res.MaxMS = rank(0.50), rank(0.99), ms[len(ms)-1]
	return res
}
