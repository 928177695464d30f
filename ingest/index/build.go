package index

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/ingest/states"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// classLister is implemented by sources that know their event classes up
// front (CTF, from the metadata), which lets analyses be chosen before the
// first event.
type classLister interface {
	Classes() []*core.EventClass
}

// testHookEvent, when set (by tests only), is called with each event's
// rank during a build: the crash test uses it to kill the process at a
// chosen point.
var testHookEvent func(rank int64)

// stateKeeper is a source that keeps in the index what its readers need at
// open (trace.dat: the event formats and symbols its events use), handed
// back to them in [ingest.OpenEnv.State].
type stateKeeper interface {
	IndexState() []byte
}

// buildRequest is one index build.
type buildRequest struct {
	src         core.Source
	path        string // final index path
	layout      history.Layout
	arch        string // Options.Arch
	trace       string // absolute trace path
	fingerprint string
	progress    func(done, total int64)
	readInline  bool                  // read the trace on the build's goroutine (tests compare)
	readAhead   bool                  // read it ahead whatever its size, unless it has stacks (tests compare)
	reclaim     func(returnToOS bool) // Options.Reclaim
	mode        os.FileMode           // the index file's permission bits (0: 0600)
}

// buildOptions are the history options of a build: the rows the browser
// draws from states get level-of-detail summaries, and ctx cancels the
// summary pass of Close.
func buildOptions(ctx context.Context, req buildRequest) history.Options {
	return history.Options{Layout: req.layout, Summarise: core.SummaryRule, Context: ctx, Reclaim: req.reclaim, Mode: req.mode}
}

// collectAfterAnalyses is the attribute count from which the build
// collects garbage once the analyses are done: one collection, a few
// hundred milliseconds at 12.9 M attributes, none below a million.
const collectAfterAnalyses = 1 << 20

// progressEvery is how many events pass between progress reports and
// cancellation checks: a few milliseconds of work.
const progressEvery = 1 << 14

// build reads every event once, feeding the analyses (into the history
// builder) and the event index, and writes the index file atomically. On
// any error or cancellation nothing is left at req.path.
func build(ctx context.Context, req buildRequest) (err error) {
	began := time.Now()
	dir := filepath.Dir(req.path)
	prefix := "." + filepath.Base(req.path)
	removeStale(dir, prefix+eventindex.TempPrefix)
	ew, err := eventindex.NewWriter(dir, prefix, 0)
	if err != nil {
		return err
	}
	defer ew.Close()
	var order *chrome.OrderWriter
	if cs, ok := req.src.(*chrome.Source); ok {
		removeStale(dir, prefix+orderTempPrefix)
		if order, err = cs.RecordOrder(dir, prefix+orderTempPrefix); err != nil {
			return err
		}
		defer order.Close()
	}

	src := req.src
	var rd eventReader = &directReader{ew: ew, src: src}
	switch {
	case req.readAhead && !hasStacks(src):
		rd = startReadAhead(ew, src)
	case !req.readInline:
		rd = newEventReader(ew, src)
	}
	stacks, err := newStackRecorder(src, dir, prefix)
	if err != nil {
		return err
	}
	defer stacks.close()
	defer rd.stop() // before the writer is closed: it may be writing
	var b *history.Builder
	defer func() {
		if err != nil && b != nil {
			b.Abort()
		}
	}()
	var analyses []states.Analysis
	var rec *pstree.Recorder   // the analyses' writes, for the process tree section
	var whole *kstats.Recorder // the whole trace's statistics, for their section
	var last core.Time
	for n := int64(0); ; n++ {
		if n%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if req.progress != nil {
				req.progress(rd.progress())
			}
		}
		ev, err := rd.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the trace: %w", err)
		}
		if b == nil { // the history starts at the first event
			if b, err = history.Create(req.path, ev.Time, buildOptions(ctx, req)); err != nil {
				return err
			}
			whole = kstats.NewRecorder(b, ev.Time, kstats.StoredTop)
			rec = pstree.NewRecorder(whole)
			info, classes := rd.first()
			analyses = states.Choose(info, classes, rec, req.arch)
		}
		last = ev.Time
		if testHookEvent != nil {
			testHookEvent(n)
		}
		for _, a := range analyses {
			if err := a.Handle(ev); err != nil {
				return fmt.Errorf("analysing the event at %s: %w", core.FormatTimestamp(ev.Time), err)
			}
		}
		stacks.add(ev)
	}
	// The source and the event index are this goroutine's again.
	rd.stop()
	if err := ctx.Err(); err != nil { // cancelled after the last check
		return err
	}
	if b == nil { // no event: an empty history of one instant
		start := src.Info().Start
		if b, err = history.Create(req.path, start, buildOptions(ctx, req)); err != nil {
			return err
		}
		last = start
	}
	// States may outlast the last event (a Chrome X slice's end): the
	// history ends at the latest instant an analysis needs.
	end := last
	for _, a := range analyses {
		if h, ok := a.(interface{ Horizon() core.Time }); ok {
			end = max(end, h.Horizon())
		}
	}
	for _, a := range analyses {
		if err := a.Finish(end); err != nil {
			return fmt.Errorf("finishing the analysis: %w", err)
		}
	}
	if req.progress != nil {
		req.progress(src.Progress())
	}

	size, r, err := ew.Finish()
	if err != nil {
		return err
	}
	if err := b.AddSection(sectionEvents, size, r); err != nil {
		return err
	}
	if err := stacks.addSection(b); err != nil {
		return err
	}
	st := buildInfo(req, src, ew.Events(), analyses)
	// The analyses' per-thread records (115 MB at 1.6 M threads) are
	// garbage from here. Collected now, they lower the heap's next goal
	// before the process tree is listed and encoded; left to the next
	// collection, that goal was set by the heap at the end of the trace
	// and the process reached it.
	analyses = nil
	if b.Attributes().Len() >= collectAfterAnalyses && req.reclaim != nil {
		req.reclaim(false)
	}
	var table *pstree.Table
	if rec != nil { // the browser opens on it without querying the history
		// The table reads the current states; the recorder's fields go
		// before the states end (the analyses, done, keep rec as their
		// sink).
		table = rec.Table()
		rec.Forget()
	}
	// The rows are arranged while the states end: the last states are
	// sorted and sent on this goroutine, which leaves a core idle until
	// the tree side has them (100 ms of `gen --threads 200000`). From
	// history.ReturnMemoryFrom keys they are arranged after, not on top
	// of the current states (the build's peak), while the tree side
	// places the last states.
	var rows *pstree.Encoded
	arrange := func() { rows = pstree.ControlFlow(rec.Attributes(), table) }
	arranged := make(chan struct{})
	beside := rec != nil && b.Attributes().Len() < history.ReturnMemoryFrom
	// The whole trace's statistics are summed up and encoded beside the
	// states' end too (0.28 s of 1.0 at 50 000 threads).
	var stats []byte
	var statsErr error
	summed := make(chan struct{})
	if beside {
		go func() {
			defer close(arranged)
			arrange()
		}()
		go func() {
			defer close(summed)
			stats, statsErr = encodeStats(whole, end)
		}()
	} else {
		close(arranged)
		stats, statsErr = encodeStats(whole, end)
		close(summed)
	}
	err = b.EndStates(end)
	<-arranged // before any return: the rows read the builder's tree
	<-summed
	if err != nil {
		return err
	}
	if statsErr != nil {
		return statsErr
	}
	whole = nil
	if stats != nil {
		if err := b.AddSection(kstats.SectionName, int64(len(stats)), bytes.NewReader(stats)); err != nil {
			return err
		}
	}
	if rec != nil {
		if !beside {
			arrange()
		}
		if err := addRowsSection(b, rows); err != nil {
			return err
		}
		if b.Attributes().Len() >= history.ReturnMemoryFrom && req.reclaim != nil {
			// The current states, the table and the rows are garbage, in
			// pages among the attribute tree's: given back now, they are
			// not resident beside the new arrays of the tree's encoding.
			req.reclaim(true)
		}
	}
	if sk, ok := src.(stateKeeper); ok {
		state := sk.IndexState()
		if err := b.AddSection(sectionReaderState, int64(len(state)), bytes.NewReader(state)); err != nil {
			return err
		}
	}
	if order != nil {
		size, r, err := order.Finish()
		if err != nil {
			return err
		}
		if err := b.AddSection(sectionChromeOrder, size, r); err != nil {
			return err
		}
	}
	st.BuildMS = float64(time.Since(began).Microseconds()) / 1000
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := b.AddSection(sectionInfo, int64(len(raw)), bytes.NewReader(raw)); err != nil {
		return err
	}
	return b.Close(end)
}

// buildInfo returns the facts stored with the index but the build time:
// the trace's, and the warnings of the reader and of the analyses.
func buildInfo(req buildRequest, src core.Source, events int64, analyses []states.Analysis) storedInfo {
	info := src.Info()
	st := storedInfo{Format: info.Format, Events: events, Streams: info.Streams,
		Trace: req.trace, Fingerprint: req.fingerprint}
	warnings := src.Warnings()
	for _, a := range analyses {
		if w, ok := a.(interface{ Warnings() []core.Warning }); ok {
			warnings = append(warnings, w.Warnings()...)
		}
	}
	st.WarningCount = core.WarningCount(warnings)
	for _, w := range warnings {
		if w.Kind == "discarded" {
			st.LostEvents += w.Count
		}
		if len(st.Warnings) < maxStoredWarnings {
			st.Warnings = append(st.Warnings, w)
		}
	}
	return st
}

// orderTempPrefix starts the name of the persisted order's temporary
// file, after the index's prefix.
const orderTempPrefix = ".chorder-"

// removeStale deletes temporary files a killed build left in dir. The
// caller holds the build lock of the index these names belong to.
func removeStale(dir, prefix string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
