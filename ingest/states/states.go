package states

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/perfdata"
	"github.com/tracetui/tracetui/ingest/states/callstack"
	"github.com/tracetui/tracetui/ingest/states/chrome"
	"github.com/tracetui/tracetui/ingest/states/kernel"
	"github.com/tracetui/tracetui/ingest/states/paje"
	"github.com/tracetui/tracetui/ingest/states/samples"
)

// Analysis turns events into state changes. It resolves event and field
// names once per [core.EventClass] (by its ID), never per event, and keeps
// no reference to an event after Handle returns.
type Analysis interface {
	// Handle processes one event, in trace time order.
	Handle(ev *core.Event) error
	// Finish is called after the last event with the trace end time; the
	// caller then closes the sink.
	Finish(end core.Time) error
}

// Version names the version of every analysis; it is part of the index
// fingerprint. Each analysis's version changes whenever its output does.
func Version() string {
	return "kernel" + strconv.Itoa(kernel.Version) + "-callstack" + strconv.Itoa(callstack.Version) +
		"-chrome" + strconv.Itoa(chrome.AnalysisVersion) + "-paje" + strconv.Itoa(paje.AnalysisVersion) +
		"-samples" + strconv.Itoa(samples.Version)
}

// Choose returns the analyses that apply to a source described by info
// and classes (nil when it does not list them), writing to sink; arch, if
// not "", overrides the trace's architecture.
func Choose(info core.SourceInfo, classes []*core.EventClass, sink core.StateSink, arch string) []Analysis {
	var out []Analysis
	layout := kernel.Detect(info, classes)
	if layout != nil {
		k := kernel.New(sink, layout)
		// raw system call numbers are named from --arch, else the trace's
		// architecture, else the machine's; an architecture without a
		// table leaves them "syscall#<n>", which is all the error says
		if arch == "" {
			arch = info.Arch
		}
		_ = k.SetArch(arch)
		out = append(out, k)
	}
	if callstack.Detect(info, classes) {
		if layout != nil {
			out = append(out, callstack.New(sink, callstack.WithKernel()))
		} else {
			out = append(out, callstack.New(sink))
		}
	}
	if info.Format == "perfdata" && samples.Detect(classes, perfdata.IsSampleClass) {
		out = append(out, samples.New(sink, perfdata.IsSampleClass))
	}
	switch info.Format {
	case "chrome":
		out = append(out, chrome.NewAnalysis(sink))
	case "paje":
		out = append(out, paje.NewAnalysis(sink))
	}
	return out
}
