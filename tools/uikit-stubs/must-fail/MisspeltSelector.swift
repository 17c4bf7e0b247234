// expect: has no member 'popViewControler(animated:)'
// A misspelt method name in #selector (a selector string would only fail at run time, in an app).
import UIKit

@MainActor
let misspelt = #selector(UINavigationController.popViewControler(animated:))
