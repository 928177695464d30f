package perfdata

import (
	"debug/elf"
	"errors"
)

// fileBuildID reads the GNU build ID note of an ELF file.
func fileBuildID(path string) ([]byte, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE || p.Filesz > 1<<20 {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			continue
		}
		o := f.ByteOrder
		for len(b) >= 12 {
			nameSize, descSize, typ := int(o.Uint32(b)), int(o.Uint32(b[4:])), o.Uint32(b[8:])
			name, desc := (nameSize+3)&^3, (descSize+3)&^3
			if nameSize < 0 || descSize < 0 || 12+name+desc > len(b) {
				break
			}
			if typ == ntGNUBuildID && nameSize == 4 && string(b[12:15]) == "GNU" {
				return b[12+name : 12+name+descSize], nil
			}
			b = b[12+name+desc:]
		}
	}
	return nil, errors.New("no build ID note")
}

// ntGNUBuildID is the note type of a GNU build ID.
const ntGNUBuildID = 3
