/// Reading a record without copying it (added for the audit rules).
extension ControllerTable {
    /// Calls `body` with the record of `serial` where it is stored and returns its result, or `nil` when the table
    /// has no record of `serial`. `subscript(serial)` returns a copy of the record: a retain and a release of
    /// each of its buffers, which a caller reading one field pays for nothing.
    public func withRecord<Result>(of serial: UInt32, _ body: (borrowing ControllerState) -> Result) -> Result? {
        guard let position = position(of: serial) else { return nil }
        return body(self[at: position])
    }
}

extension ControllerTable {
    /// The appearance of `serial` and since when (`ControllerState.appearance`, `appearanceSince`), read in place;
    /// `nil` when the table has no record of `serial`. Not generic, unlike `withRecord(of:_:)`, whose call from
    /// another module copied the record (≈ 300 instructions) to read two fields.
    public func appearance(of serial: UInt32) -> (appearance: Appearance, since: UInt64?)? {
        guard let position = position(of: serial) else { return nil }
        return (self[at: position].appearance, self[at: position].appearanceSince)
    }
}

extension ControllerTable {
    /// Whether `serial` is alive and its latest removal (`ControllerState.removal`) is a `Removal.Kind.replaced` at
    /// the event `ordinal` (it left a container's list there), read in place; `false` when the table has no record
    /// of `serial`. For the audit's `leaked_controller`, which asked this of a copy of every record.
    public func leftList(_ serial: UInt32, at ordinal: UInt64) -> Bool {
        guard let position = position(of: serial) else { return false }
        guard let removal = self[at: position].removal else { return false }
        return removal.kind == .replaced && removal.ordinal == ordinal && self[at: position].isAlive
    }
}
