/// Values that are names paylinks chose (outcomes, formats, shells, steps, ways to close)
/// are read in any case, on the command line and in scenario files alike. Values the SDK
/// compares exactly (SKUs, environments, customer ids, payment methods) are read as given.
extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// The case named `text`, in any letter case.
    public static func named(_ text: String) -> Self? {
        let wanted = text.lowercased()
        return allCases.first { $0.rawValue.lowercased() == wanted }
    }
}
