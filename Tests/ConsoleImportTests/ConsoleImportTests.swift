import Testing
@testable import ConsoleImport
