// Package sysnames names Linux system calls from their numbers, for the
// raw entry events that carry only a number (ftrace's and perf's
// raw_syscalls:sys_enter, LTTng's syscall_entry_unknown). The number of
// a call depends on the architecture: tables.go holds x86_64, i386,
// aarch64, arm and riscv64, generated from golang.org/x/sys/unix's
// per-architecture constants (themselves generated from the kernel's
// headers) by
//
//	go generate ./ingest/states/kernel/sysnames/
package sysnames

//go:generate go run gen.go

import (
	"fmt"
	"runtime"
	"sort"
	"strconv"
)

// Table names the system calls of one architecture.
type Table struct {
	arch  string
	names []string
}

// aliases maps other spellings of an architecture (Go's GOARCH, Debian's,
// LTTng's and trace-cmd's) to the name tables uses.
var aliases = map[string]string{
	"amd64": "x86_64", "x86-64": "x86_64", "x64": "x86_64",
	"386": "i386", "i486": "i386", "i586": "i386", "i686": "i386", "x86": "i386",
	"arm64": "aarch64", "armv7l": "arm", "armv6l": "arm", "armhf": "arm", "armel": "arm", "armv7": "arm",
}

// For returns the table of arch (uname -m's name or one of its common
// spellings); "" selects the machine's own architecture. It fails for an
// architecture it has no table of, naming the ones it has.
func For(arch string) (*Table, error) {
	if arch == "" {
		arch = runtime.GOARCH
	}
	if a, ok := aliases[arch]; ok {
		arch = a
	}
	names, ok := tables[arch]
	if !ok {
		return nil, fmt.Errorf("no system call table for architecture %q (known: %v)", arch, Arches())
	}
	return &Table{arch: arch, names: names}, nil
}

// Arches lists the architectures with a table, sorted.
func Arches() []string {
	out := make([]string, 0, len(tables))
	for a := range tables {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Arch returns the table's architecture (uname -m's name).
func (t *Table) Arch() string { return t.arch }

// Name returns the name of system call n ("openat"), and false for a
// number the architecture does not define.
func (t *Table) Name(n int64) (string, bool) {
	if t == nil || n < 0 || n >= int64(len(t.names)) || t.names[n] == "" {
		return "", false
	}
	return t.names[n], true
}

// Errno returns the name of a system call's return value: "success" for
// values from 0 up, the errno name ("ENOENT") for -4095 to -1 (Linux's
// error range, the generic errno numbering of x86, arm and riscv), else
// "" (a negative return that is not an error, such as an address).
func Errno(ret int64) string {
	switch {
	case ret >= 0:
		return "success"
	case ret >= -int64(len(errnos)) && errnos[-ret] != "":
		return errnos[-ret]
	case ret >= -4095:
		return "E" + strconv.FormatInt(-ret, 10)
	}
	return ""
}
