package callstack

import (
	"debug/elf"
	"encoding/binary"
)

// maxPLTEntries bounds the PLT entries named in one file (a relocation
// table claiming more is read that far).
const maxPLTEntries = 1 << 20

// pltSymbols names a binary's PLT entries as perf 6.1 does
// (dso__synthesize_plt_symbols): ELF symbols do not cover them. The
// relocations of .rela.plt (or .rel.plt), linked to .dynsym, are taken
// in order, one per entry after the PLT's header, named after their
// dynamic symbol with "@plt" appended (the symbol's name as it is: a
// reader demangles the stem). Header and entry sizes are the machine's
// (ARM, AArch64, SPARC), else the .plt section's entry size. The
// addresses are file offsets plus load, as perf places them (in its
// file-offset space) and as [ELFSymbols]'s users look them up.
func pltSymbols(f *elf.File, load uint64) []symbol {
	plt := f.Section(".plt")
	rel := f.Section(".rela.plt")
	if rel == nil {
		rel = f.Section(".rel.plt")
	}
	dynsym := f.Section(".dynsym")
	if plt == nil || rel == nil || dynsym == nil || rel.Type == elf.SHT_NOBITS || rel.Entsize == 0 ||
		(rel.Type != elf.SHT_RELA && rel.Type != elf.SHT_REL) || int(rel.Link) >= len(f.Sections) || f.Sections[rel.Link] != dynsym {
		return nil
	}
	header, entry := pltSizes(f.Machine, plt.Entsize)
	if entry == 0 {
		return nil
	}
	syms, err := f.DynamicSymbols() // without the null symbol 0
	if err != nil {
		return nil
	}
	data, err := rel.Data()
	if err != nil {
		return nil
	}
	n := min(uint64(len(data))/rel.Entsize, maxPLTEntries)
	out := make([]symbol, 0, n)
	at := plt.Offset + header
	for i := range n {
		idx := relSymbol(f, data[i*rel.Entsize:], rel.Type == elf.SHT_RELA)
		name := ""
		if idx > 0 && idx <= uint64(len(syms)) {
			name = syms[idx-1].Name
		}
		out = append(out, symbol{addr: at + load, name: name + "@plt", size: entry})
		at += entry
	}
	return out
}

// pltSizes returns the sizes of a PLT's header and of its entries on a
// machine, as perf 6.1 has them.
func pltSizes(m elf.Machine, entsize uint64) (header, entry uint64) {
	switch m {
	case elf.EM_ARM:
		return 20, 12
	case elf.EM_AARCH64:
		return 32, 16
	case elf.EM_SPARC:
		return 48, 12
	case elf.EM_SPARCV9:
		return 128, 32
	}
	return entsize, entsize
}

// relSymbol returns the symbol index of the relocation at the start of
// b (0 when b is too short for one).
func relSymbol(f *elf.File, b []byte, rela bool) uint64 {
	var order binary.ByteOrder = binary.LittleEndian
	if f.Data == elf.ELFDATA2MSB {
		order = binary.BigEndian
	}
	if f.Class == elf.ELFCLASS64 {
		if len(b) < 16 {
			return 0
		}
		return order.Uint64(b[8:]) >> 32
	}
	if len(b) < 8 {
		return 0
	}
	return uint64(order.Uint32(b[4:]) >> 8)
}
