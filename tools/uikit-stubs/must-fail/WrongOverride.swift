// expect: method does not override any method from its superclass
// An override with the wrong signature (viewWillDisappear takes `animated`): the stubs must carry UIKit's.
import UIKit

final class WrongOverride: UIViewController {
    override func viewWillDisappear() {}
}
