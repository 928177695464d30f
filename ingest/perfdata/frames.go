package perfdata

import "github.com/tracetui/tracetui/core"

// Frame is one resolved frame of a sample's call chain.
type Frame struct {
	IP     uint64 // the address recorded
	Addr   uint64 // as perf script prints it: map-relative in a mapped file
	Symbol string // "" when unknown
	Offset uint64 // from the symbol's start
	DSO    string // "[kernel.kallsyms]", a file's path, "" when unknown
	Kernel bool
}

// Frames appends the call chain of the sample last returned by Next,
// leaf first, as perf script prints it (context markers dropped, at most
// perf's default 127 frames), to dst; without a call chain, the sample's
// IP alone; nothing for other records. For the profiles of samples.
func (s *Source) Frames(dst []Frame) []Frame {
	if s.cur.typ != recSample || s.curCl == nil || s.curCl.format != nil && !s.curS.hasCallchain {
		return dst
	}
	kernel := s.cur.misc&miscCPUModeMask == miscKernel
	if !s.curS.hasCallchain {
		if !s.curS.hasIP {
			return dst
		}
		return append(dst, s.frame(s.curS.ip, kernel))
	}
	n := 0
	for _, ip := range s.curS.callchain {
		if ip >= contextMax {
			switch ip {
			case contextKernel, contextGuestKernel:
				kernel = true
			case contextUser, contextGuestUser:
				kernel = false
			}
			continue
		}
		if n >= maxStack {
			break
		}
		n++
		dst = append(dst, s.frame(ip, kernel))
	}
	return dst
}

func (s *Source) frame(ip uint64, kernel bool) Frame {
	fr := s.resolve(ip, kernel)
	return Frame{IP: ip, Addr: fr.addr, Symbol: fr.sym, Offset: fr.off, DSO: fr.dso, Kernel: kernel}
}

// AppendStack appends the names of the call stack of the sample last
// returned by Next, leaf first, to dst: each frame's symbol, or its
// address (core.FormatAddress) when nothing names it; nothing for an
// event without a stack. It is what profiles of samples aggregate
// (core.Stacker). Names of unknown addresses are made once.
// HasStacks reports whether the file's samples may carry call stacks
// (an event sampled with PERF_SAMPLE_CALLCHAIN): without, AppendStack
// appends nothing, whichever the event.
func (s *Source) HasStacks() bool {
	for _, a := range s.f.attrs {
		if a.sampleType&sampleCallchain != 0 {
			return true
		}
	}
	return false
}

func (s *Source) AppendStack(dst []string) []string {
	s.stack = s.Frames(s.stack[:0])
	for i := range s.stack {
		f := &s.stack[i]
		if f.Symbol != "" {
			dst = append(dst, f.Symbol)
			continue
		}
		name, ok := s.unnamed[f.Addr]
		if !ok {
			if s.unnamed == nil {
				s.unnamed = map[uint64]string{}
			}
			name = core.FormatAddress(f.Addr)
			if len(s.unnamed) < maxUnnamed {
				s.unnamed[f.Addr] = name
			}
		}
		dst = append(dst, name)
	}
	return dst
}

// maxUnnamed bounds AppendStack's cache of names of unknown addresses.
const maxUnnamed = 1 << 16
