// Package virtools reads Virtools 2.x composition files (.nmo, .cmo), the
// format of Ballance, and converts what they animate into bake's neutral
// model: CKObjectAnimation and CKKeyedAnimation controllers on the 3D
// entities they move, and CKCurve paths.
//
// Reading happens in two stages. The container stage (header, Header1,
// Data, CKStateChunk) turns the file into a table of objects with their
// raw state chunks; the class stage decodes the chunks of the classes bake
// needs (3D entities, curves, curve points, object and keyed animations)
// into plain structs that hold exactly what is on disk. Conversion then
// builds the model.File from those structs. The layouts are documented in
// docs/formats/virtools.md.
package virtools
