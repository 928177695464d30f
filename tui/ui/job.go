package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// Background jobs (see the package doc). Progress follows Bubble Tea's re-arm pattern: the work sends reports on
// a channel; the command returned by spawn delivers the first one, and
// each report carries the channel so that its handler returns
// waitReport(ch) to receive the next. Nothing is delivered once the
// channel is closed.

// Job tags and cancels the runs of one kind of background work.
type Job struct {
	seq    uint64
	cancel context.CancelFunc
}

// Start cancels the current run and returns the context and sequence
// number of a new one.
func (j *Job) Start(parent context.Context) (context.Context, uint64) {
	j.Stop()
	ctx, cancel := context.WithCancel(parent)
	j.cancel = cancel
	return ctx, j.seq
}

// Stop cancels the current run; its late reports are no longer current.
func (j *Job) Stop() {
	j.Finish()
	j.seq++
}

// Finish releases the current run's context after its last report; its
// results stay current.
func (j *Job) Finish() {
	if j.cancel != nil {
		j.cancel()
		j.cancel = nil
	}
}

// Current reports whether a report tagged seq is of the current run.
func (j *Job) Current(seq uint64) bool { return seq == j.seq }

// report is a message of a background job that carries the channel it
// came from, so that its handler can wait for the next one.
type report[M any] interface{ On(ch <-chan M) M }

// WaitReport waits for a job's next report (nil once its channel is
// closed).
func WaitReport[M report[M]](ch <-chan M) tea.Cmd {
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m.On(ch)
	}
}

// Spawn returns the command that starts work on its own goroutine, with a
// report channel of capacity n (closed when work returns), and delivers
// its first report.
func Spawn[M report[M]](n int, work func(ch chan<- M)) tea.Cmd {
	ch := make(chan M, n)
	return func() tea.Msg {
		go func() {
			defer close(ch)
			work(ch)
		}()
		return WaitReport(ch)()
	}
}

// Running reports whether a run is started and not yet finished.
func (j *Job) Running() bool { return j.cancel != nil }

// Tag is the sequence number of the current run (what its reports carry).
func (j *Job) Tag() uint64 { return j.seq }
