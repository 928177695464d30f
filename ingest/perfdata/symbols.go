package perfdata

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
	"github.com/tracetui/tracetui/ingest/states/callstack"
)

// Where symbols come from, as perf finds them:
//   - kernel addresses: the tracing data's kallsyms when it has any (perf
//     writes it empty), else /proc/kallsyms, only when the trace's os
//     release and kernel build ID are the running kernel's (else
//     addresses, with one warning); KASLR is undone by comparing the
//     recorded _text (the kernel MMAP's pgoff) with the running one;
//   - user addresses: the ELF .symtab (or .dynsym, or the separate debug
//     file) of the mapped file, through the callstack package's loader,
//     found in perf's build-ID cache (~/.debug/.build-id) by the build ID
//     the file recorded, else at its path when its build ID matches (or
//     none was recorded). Only regular files are opened.

// symbolizer caches the symbol tables of the trace's files.
type symbolizer struct {
	kernel     *ftracefmt.Symbols
	kernelDone bool
	delta      uint64 // running _text - recorded _text
	elfs       map[string]*elfSyms
	jits       map[string]*jitSyms
	buildIDs   map[string][]byte // by path, from the BUILD_ID feature
	warned     bool
}

type elfSyms struct {
	syms  *callstack.Symbols
	load  uint64
	names map[string]string // demangled names of C++ symbols (demangle.go)
}

// osRelease returns the running kernel's release (uname -r).
func osRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// runningKernelBuildID reads the GNU build-ID note of /sys/kernel/notes.
func runningKernelBuildID() []byte {
	b, err := os.ReadFile("/sys/kernel/notes")
	if err != nil {
		return nil
	}
	o := binary.LittleEndian
	for len(b) >= 12 {
		nameSize, descSize, typ := int(o.Uint32(b)), int(o.Uint32(b[4:])), o.Uint32(b[8:])
		name := (nameSize + 3) &^ 3
		desc := (descSize + 3) &^ 3
		if 12+name+desc > len(b) {
			return nil
		}
		if typ == 3 && nameSize == 4 && string(b[12:15]) == "GNU" {
			return b[12+name : 12+name+descSize]
		}
		b = b[12+name+desc:]
	}
	return nil
}

func (s *Source) symbols() *symbolizer {
	if s.syms == nil {
		s.syms = &symbolizer{elfs: map[string]*elfSyms{}, buildIDs: map[string][]byte{}}
		for _, b := range s.f.meta.BuildIDs {
			s.syms.buildIDs[b.Path] = b.ID
		}
	}
	return s.syms
}

// kernelSymbols loads the kernel's symbols once.
func (s *Source) kernelSymbols() *ftracefmt.Symbols {
	sy := s.symbols()
	if sy.kernelDone {
		return sy.kernel
	}
	sy.kernelDone = true
	if s.f.tracing != nil && len(bytes.TrimSpace(s.f.tracing.kallsyms)) > 0 {
		sy.kernel = ftracefmt.ParseKallsyms(s.f.tracing.kallsyms)
		return sy.kernel
	}
	why := ""
	rel := osRelease()
	switch {
	case s.f.meta.OSRelease == "":
		why = "the trace does not say which kernel recorded it"
	case rel != s.f.meta.OSRelease:
		why = fmt.Sprintf("it was recorded on kernel %s, this is %s", s.f.meta.OSRelease, rel)
	}
	if why == "" {
		if want, ok := sy.buildIDs["[kernel.kallsyms]"]; ok {
			if got := runningKernelBuildID(); got != nil && !bytes.Equal(got, want) {
				why = fmt.Sprintf("the running kernel's build ID %x is not the recorded %x", got, want)
			}
		}
	}
	if why == "" {
		b, err := os.ReadFile("/proc/kallsyms")
		if err == nil {
			k := ftracefmt.ParseKallsyms(b)
			if k.Len() == 0 {
				why = "/proc/kallsyms shows no addresses (not root, or kptr_restrict)"
			} else {
				sy.kernel = k
				sy.delta = s.kaslrDelta(k)
				return k
			}
		} else {
			why = err.Error()
		}
	}
	s.warn(core.Warning{Stream: -1, Kind: "no-kernel-symbols",
		Message: fmt.Sprintf("%s: kernel addresses are not named: %s", s.f.path, why)})
	return nil
}

// kaslrDelta is how far the running kernel's text is from the recorded
// one: the running _text minus the recorded (the kernel MMAP's pgoff).
func (s *Source) kaslrDelta(k *ftracefmt.Symbols) uint64 {
	for _, m := range s.f.space.kernel {
		if !strings.HasPrefix(m.name, "[kernel.kallsyms]") {
			continue
		}
		reloc := strings.TrimPrefix(m.name, "[kernel.kallsyms]")
		if reloc == "" {
			reloc = "_text"
		}
		if addr, ok := k.Address(reloc); ok {
			return addr - m.pgoff
		}
	}
	return 0
}

// kernelSymbol resolves a kernel address for %ps/%pS.
func (s *Source) kernelSymbol(addr uint64) (string, uint64, bool) {
	k := s.kernelSymbols()
	if k == nil {
		return "", 0, false
	}
	d := s.syms.delta
	name, start, ok := k.Lookup(addr + d)
	return name, start - d, ok
}

// elf returns the symbols of a mapped file (nil when none can be read).
func (s *Source) elf(path string) *elfSyms {
	sy := s.symbols()
	if e, ok := sy.elfs[path]; ok {
		return e
	}
	var e *elfSyms
	for _, cand := range s.elfCandidates(path) {
		if st, err := os.Stat(cand); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if syms, load, err := callstack.ELFSymbols(cand, ""); err == nil {
			e = &elfSyms{syms: syms, load: load}
			break
		}
	}
	if len(sy.elfs) < 4096 {
		sy.elfs[path] = e
	}
	return e
}

// elfCandidates are the files that may hold a mapped file's symbols, in
// perf's order: the distribution's debug file for its build ID, perf's
// build-ID cache entries (~/.debug/.build-id/xx/rest/elf,
// ~/.debug/<path>/<id>/elf, ~/.debug/[vdso]/<id>/vdso), then the path
// itself when its build ID matches the recorded one (or none was
// recorded).
func (s *Source) elfCandidates(path string) []string {
	vdso := path == "[vdso]"
	if !vdso && (!filepath.IsAbs(path) || strings.HasPrefix(path, "[")) {
		return nil
	}
	id, recorded := s.symbols().buildIDs[path]
	var got []byte
	var err error = errNotRead
	if !vdso {
		got, err = fileBuildID(path)
	}
	if !recorded && err == nil {
		id = got
	}
	var out []string
	if len(id) > 1 {
		h := hex.EncodeToString(id)
		out = append(out, filepath.Join("/usr/lib/debug/.build-id", h[:2], h[2:]+".debug"))
		if home, err := os.UserHomeDir(); err == nil {
			out = append(out, filepath.Join(home, ".debug", ".build-id", h[:2], h[2:], "elf"))
			if vdso {
				out = append(out, filepath.Join(home, ".debug", "[vdso]", h, "vdso"))
			} else {
				out = append(out, filepath.Join(home, ".debug", path, h, "elf"))
			}
		}
	}
	if !vdso && (!recorded || err == nil && bytes.Equal(got, id)) {
		out = append(out, path)
	}
	return out
}

var errNotRead = errors.New("not read")

// frame is one resolved address.
type frame struct {
	addr uint64 // as perf prints it: map-relative for a mapped file
	sym  string
	off  uint64
	dso  string
	hasS bool
}

// resolve names ip, in kernel or user mode, for the current sample's
// thread.
func (s *Source) resolve(ip uint64, kernel bool) frame {
	fr := frame{addr: ip}
	if kernel {
		m := s.f.space.findKernel(ip)
		fr.dso = "[kernel.kallsyms]"
		if m != nil {
			fr.dso = kernelDSO(m)
		} else if len(s.f.space.kernel) == 0 {
			fr.dso = ""
		}
		if fr.dso != "" {
			if name, start, ok := s.kernelSymbol(ip); ok {
				fr.sym, fr.off, fr.hasS = name, ip-start, true
			}
		}
		return fr
	}
	m := s.f.space.find(s.curS.pid, ip, s.curTime(), s.cur.at)
	if m == nil {
		return fr
	}
	fr.dso = dsoName(m)
	if m.jit {
		// perf reads the process's JIT map; addresses stay as they are.
		if j := s.jit(m.name); j != nil {
			if name, off, ok := j.lookup(ip); ok {
				fr.sym, fr.off, fr.hasS = name, off, true
			}
		}
		return fr
	}
	fileOff := ip - m.start + m.pgoff
	fr.addr = fileOff
	if !m.elfDone {
		m.syms, m.elfDone = s.elf(m.name), true
	}
	if e := m.syms; e != nil {
		if name, off, ok := e.syms.LookupSized(fileOff + e.load); ok {
			fr.sym, fr.off, fr.hasS = e.demangled(name), off, true
		}
	}
	return fr
}

// kernelDSO names a kernel mapping as perf does: "[kernel.kallsyms]", or
// a module as "[name]".
func kernelDSO(m *mapping) string {
	if strings.HasPrefix(m.name, "[") {
		if strings.HasPrefix(m.name, "[kernel.kallsyms]") {
			return "[kernel.kallsyms]"
		}
		return m.name
	}
	base := filepath.Base(m.name)
	if i := strings.Index(base, ".ko"); i >= 0 {
		base = base[:i]
	}
	return "[" + strings.ReplaceAll(base, "-", "_") + "]"
}

// appendFrame appends "<addr %16x> <sym>+0x<off> (<dso>)" for a sample's
// IP, printed as recorded (not map-relative as in call chains).
func (s *Source) appendFrame(dst []byte, ip uint64, mode uint16) []byte {
	fr := s.resolve(ip, mode == miscKernel)
	fr.addr = ip
	return appendResolved(dst, fr)
}

func appendResolved(dst []byte, fr frame) []byte {
	var b [16]byte
	h := strconv.AppendUint(b[:0], fr.addr, 16)
	for i := len(h); i < 16; i++ {
		dst = append(dst, ' ')
	}
	dst = append(dst, h...)
	dst = append(dst, ' ')
	if fr.hasS {
		dst = append(dst, fr.sym...)
		dst = append(dst, "+0x"...)
		dst = strconv.AppendUint(dst, fr.off, 16)
	} else {
		dst = append(dst, "[unknown]"...)
	}
	dst = append(dst, " ("...)
	if fr.dso == "" {
		dst = append(dst, "[unknown]"...)
	} else {
		dst = append(dst, fr.dso...)
	}
	return append(dst, ')')
}

// Callchain context markers.
const (
	contextMax         = 0xfffffffffffff001
	contextHV          = 0xffffffffffffffe0
	contextKernel      = 0xffffffffffffff80
	contextUser        = 0xfffffffffffffe00
	contextGuestKernel = 0xfffffffffffff780
	contextGuestUser   = 0xfffffffffffff600
)

// maxStack is perf's default kernel.perf_event_max_stack.
const maxStack = 127

// appendCallchain appends the call chain lines of the current sample,
// "\t<frame>\n" each.
func (s *Source) appendCallchain(dst []byte) []byte {
	s.frames = s.Frames(s.frames[:0])
	for _, f := range s.frames {
		dst = append(dst, '\t')
		dst = appendResolved(dst, frame{addr: f.Addr, sym: f.Symbol, off: f.Offset, dso: f.DSO, hasS: f.Symbol != ""})
		dst = append(dst, '\n')
	}
	return dst
}
