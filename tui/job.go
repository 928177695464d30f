package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// Background jobs. Slow work (a filter scan, statistics, an overview, the
// index build, a frame query) runs in a tea.Cmd over copied values and
// reports through tagged messages. A job is one kind of such work, of
// which at most one run is current: starting a run cancels the previous
// one, and every report carries the run's sequence number so that what a
// superseded or cancelled run still sends is recognised and dropped.
//
// Progress follows Bubble Tea's re-arm pattern: the work sends reports on
// a channel; the command returned by spawn delivers the first one, and
// each report carries the channel so that its handler returns
// waitReport(ch) to receive the next. Nothing is delivered once the
// channel is closed.

// job tags and cancels the runs of one kind of background work.
type job struct {
	seq    uint64
	cancel context.CancelFunc
}

// start cancels the current run and returns the context and sequence
// number of a new one.
func (j *job) start(parent context.Context) (context.Context, uint64) {
	j.stop()
	ctx, cancel := context.WithCancel(parent)
	j.cancel = cancel
	return ctx, j.seq
}

// stop cancels the current run; its late reports are no longer current.
func (j *job) stop() {
	j.finish()
	j.seq++
}

// finish releases the current run's context after its last report; its
// results stay current.
func (j *job) finish() {
	if j.cancel != nil {
		j.cancel()
		j.cancel = nil
	}
}

// current reports whether a report tagged seq is of the current run.
func (j *job) current(seq uint64) bool { return seq == j.seq }

// report is a message of a background job that carries the channel it
// came from, so that its handler can wait for the next one.
type report[M any] interface{ on(ch <-chan M) M }

// waitReport waits for a job's next report (nil once its channel is
// closed).
func waitReport[M report[M]](ch <-chan M) tea.Cmd {
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m.on(ch)
	}
}

// spawn returns the command that starts work on its own goroutine, with a
// report channel of capacity n (closed when work returns), and delivers
// its first report.
func spawn[M report[M]](n int, work func(ch chan<- M)) tea.Cmd {
	ch := make(chan M, n)
	return func() tea.Msg {
		go func() {
			defer close(ch)
			work(ch)
		}()
		return waitReport(ch)()
	}
}
