import Testing
@testable import Recorder
