package oni

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/animbake/bake/format"
)

// Layouts of the instances that link to OBANs (oni-container.md §3),
// offsets past the instance header.
const (
	arrayCountOff   = 0x16 // i16 element count of OBOA and OBDC
	arrayElemsOff   = 0x18 // first element of OBOA and OBDC
	oboaElemSize    = 240
	oboaElemLinkOff = 0x04
	oboaElemNameOff = 0x70
	oboaNameSize    = 64
	obdcElemSize    = 24
	obdcElemLinkOff = 0x04
	doorLinkOff     = 0x08
	trigLinkOff     = 0x20
)

// referrerNames maps OBAN descriptor indices to names taken from the
// instances that link to them: an OBOA element's object name, else
// "<DOOR>_anim", "<TRIG>_anim" or "<OBDC>_<element>". The first referrer in
// that order of templates, then in file order, wins. A referrer that is
// malformed only costs its names, with a notice: names are a courtesy, not
// data.
func referrerNames(c *Container, opts *format.Options) (map[int]string, map[int]string) {
	names := map[int]string{}
	by := map[int]string{}
	add := func(link uint32, name, kind string) {
		d := c.Resolve(link)
		if d == nil || d.Tag != TagOBAN || name == "" {
			return
		}
		if _, taken := names[d.Index]; !taken {
			names[d.Index] = name
			by[d.Index] = kind
		}
	}
	for _, tag := range []Tag{TagOBOA, TagDOOR, TagTRIG, TagOBDC} {
		for i := range c.Descriptors {
			d := &c.Descriptors[i]
			if d.Tag != tag || d.Placeholder() {
				continue
			}
			if err := scanReferrer(c, d, add); err != nil {
				opts.Warnf("oni: %s instance %d %q: %v; its links do not name animations", d.Tag, d.Index, d.Name, err)
			}
		}
	}
	return names, by
}

// scanReferrer reports every OBAN link of one referrer to add.
func scanReferrer(c *Container, d *Descriptor, add func(link uint32, name, kind string)) error {
	r := c.Payload(d)
	short := d.ShortName()
	switch d.Tag {
	case TagDOOR, TagTRIG:
		off := doorLinkOff
		if d.Tag == TagTRIG {
			off = trigLinkOff
		}
		if err := r.Seek(off, d.Tag.String()+" OBAN link"); err != nil {
			return err
		}
		link, err := r.U32(d.Tag.String() + " OBAN link")
		if err != nil {
			return err
		}
		if short != "" {
			add(link, short+"_anim", d.Tag.String())
		}
		return nil
	}
	elemSize, linkOff := oboaElemSize, oboaElemLinkOff
	if d.Tag == TagOBDC {
		elemSize, linkOff = obdcElemSize, obdcElemLinkOff
	}
	if err := r.Seek(arrayCountOff, "element count"); err != nil {
		return err
	}
	count, err := r.I16("element count")
	if err != nil {
		return err
	}
	if count < 0 {
		return r.Errorf("element count %d is negative", count)
	}
	n, err := r.Count(uint64(count), elemSize, d.Tag.String()+" elements")
	if err != nil {
		return err
	}
	for i := range n {
		e, _ := r.Sub(elemSize, "element")
		e.Pos = linkOff
		link, _ := e.U32("OBAN link")
		var name string
		if d.Tag == TagOBOA {
			e.Pos = oboaElemNameOff
			name, _ = e.FixedString(oboaNameSize, "object name")
		} else if short != "" {
			name = fmt.Sprintf("%s_%d", short, i)
		}
		add(link, name, d.Tag.String())
	}
	return nil
}

// fileNameFallback decodes an OniSplit file name into an instance name the
// way OniSplit's reader does for descriptor 0 of a .oni file: drop the
// directory and extension, undo %XX escapes, and drop the tag prefix.
func fileNameFallback(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if s, err := url.PathUnescape(base); err == nil {
		base = s
	}
	return strings.TrimPrefix(base, TagOBAN.String())
}

// uniqueNames hands out animation names whose nodes do not collide with
// any node already named in the file.
type uniqueNames struct{ used map[string]bool }

// suffixes are the names of the extra nodes an animation may create.
var nodeSuffixes = []string{"", "_motion", "_local"}

// take returns name, or name_2, name_3, ... so that it and all of its node
// names are unused, and marks them used.
func (u *uniqueNames) take(name string) string {
	if u.used == nil {
		u.used = map[string]bool{}
	}
	cand := name
	for n := 2; ; n++ {
		free := true
		for _, s := range nodeSuffixes {
			if u.used[cand+s] {
				free = false
				break
			}
		}
		if free {
			break
		}
		cand = fmt.Sprintf("%s_%d", name, n)
	}
	for _, s := range nodeSuffixes {
		u.used[cand+s] = true
	}
	return cand
}
