// A libFuzzer target: arbitrary bytes through the framing reader, the
// JSON-RPC layer and the method dispatcher, with live sessions behind them.
//
// Built with `-D FUZZING -sanitize=fuzzer,address` (`make fuzz`), libFuzzer
// provides `main`. Built normally, `main` replays the files named on the
// command line through the same entry point: that is how crash inputs
// become regression tests.
import JSONRPC
import LayoutServer

#if canImport(Glibc)
  import Glibc
#endif

/// Opens a flow, a cover-flow, a waterfall, a carousel, a compositional
/// session (an App Store list: a pinned header and a background, then a
/// zooming row of nested groups) and an endless pager before the fuzz input, so that the input exercises live sessions and not only the
/// error paths, and grows each with a layout/appendItems (a uniform section
/// that gets sizes, a section of ids that gets more, packed sizes); the
/// waterfall is left in the middle of a drag to reorder.
let prelude: [UInt8] = {
  let messages = [
    #"{"jsonrpc":"2.0","id":"p1","method":"initialize","params":{}}"#,
    #"{"jsonrpc":"2.0","id":"p2","method":"layout/open","params":{"session":"f","layout":{"type":"flow","itemSize":{"width":60,"height":40},"headerReferenceSize":{"width":0,"height":20},"sectionHeadersPinToVisibleBounds":true},"bounds":{"x":0,"y":0,"width":320,"height":200},"sections":[{"itemCount":12},{"itemSizes":[{"width":100,"height":30},{"width":200,"height":50},{"width":30,"height":30}]}]}}"#,
    #"{"jsonrpc":"2.0","id":"p3","method":"layout/open","params":{"session":"c","layout":{"type":"coverFlow","minimumLineSpacing":30,"scale":{"factor":0.5}},"bounds":{"x":0,"y":0,"width":375,"height":300},"sections":[{"itemCount":10,"ids":[0,1,2,3,4,5,6,7,8,9]}]}}"#,
    #"{"jsonrpc":"2.0","id":"p4","method":"layout/appendItems","params":{"session":"f","section":0,"widthsAndHeights":[90,40,30,60]}}"#,
    #"{"jsonrpc":"2.0","id":"p5","method":"layout/appendItems","params":{"session":"c","section":0,"itemCount":2,"ids":[10,11]}}"#,
    #"{"jsonrpc":"2.0","id":"p6","method":"layout/open","params":{"session":"w","layout":{"type":"waterfall","columnCount":3,"headerHeight":20,"placement":"stable","sectionHeadersPinToVisibleBounds":true,"snap":{"policy":"paging"}},"bounds":{"x":0,"y":0,"width":320,"height":300},"sections":[{"itemSizes":[{"width":100,"height":100},{"width":100,"height":40,"fullSpan":true},{"width":50,"height":80}]},{"itemCount":6,"columnCount":2,"footerHeight":10}]}}"#,
    #"{"jsonrpc":"2.0","id":"p7","method":"layout/appendItems","params":{"session":"w","section":0,"itemSizes":[{"width":10,"height":30},{"width":10,"height":5,"fullSpan":true}]}}"#,
    #"{"jsonrpc":"2.0","id":"p8","method":"layout/open","params":{"session":"r","layout":{"type":"carousel","style":"rotary","itemSize":{"width":120,"height":90}},"bounds":{"x":0,"y":0,"width":375,"height":300},"sections":[{"itemSizes":[{"width":100,"height":100},{"width":150,"height":60}]},{"itemCount":5}]}}"#,
    #"{"jsonrpc":"2.0","id":"p9","method":"layout/appendItems","params":{"session":"r","section":1,"itemCount":3}}"#,
    // Packed sizes (150×100, 60×100, 90×100), for the mutator to corrupt.
    #"{"jsonrpc":"2.0","id":"p10","method":"layout/appendItems","params":{"session":"f","section":1,"widthsAndHeightsBase64":"AAAAAADAYkAAAAAAAABZQAAAAAAAAE5AAAAAAAAAWUAAAAAAAIBWQAAAAAAAAFlA"}}"#,
    #"{"jsonrpc":"2.0","id":"p11","method":"layout/open","params":{"session":"k","layout":{"type":"compositional","interSectionSpacing":8,"section":{"group":{"direction":"horizontal","size":{"width":{"fractionalWidth":1},"height":{"estimated":44}},"subitems":[{"size":{"width":{"fractionalWidth":0.5},"height":{"estimated":44}},"contentInsets":{"top":2,"leading":2,"bottom":2,"trailing":2}}],"interItemSpacing":{"flexible":4}},"contentInsets":{"top":4,"leading":8,"bottom":4,"trailing":8},"boundarySupplementaryItems":[{"kind":"header","size":{"width":{"fractionalWidth":1},"height":{"absolute":24}},"pinToVisibleBounds":true},{"kind":"footer","size":{"width":{"fractionalWidth":1},"height":{"absolute":12}}}],"decorationItems":[{"kind":"background","contentInsets":{"top":1,"leading":1,"bottom":1,"trailing":1}}]}},"bounds":{"x":0,"y":0,"width":320,"height":300},"sections":[{"itemCount":7},{"itemCount":9,"layout":{"group":{"direction":"horizontal","size":{"width":{"absolute":150},"height":{"absolute":100}},"subitems":[{"size":{"width":{"fractionalWidth":1},"height":{"fractionalHeight":0.6}}},{"direction":"vertical","size":{"width":{"fractionalWidth":1},"height":{"fractionalHeight":0.4}},"subitems":[{"size":{"width":{"fractionalWidth":1},"height":{"fractionalHeight":1}}}],"count":1}]},"interGroupSpacing":10,"orthogonalScrollingBehavior":"groupPagingCentered","effect":{"scale":{"peak":1.1,"factor":0.5,"minimum":0.8},"alpha":{"peak":1,"factor":0.5}}}},{"itemCount":4,"layout":{"group":{"direction":"vertical","size":{"width":{"absolute":120},"height":{"absolute":80}},"subitems":[{"size":{"width":{"fractionalWidth":1},"height":{"fractionalHeight":0.5}}}],"count":2},"orthogonalScrollingBehavior":"paging"}}]}}"#,
    #"{"jsonrpc":"2.0","id":"p12","method":"layout/scrollSection","params":{"session":"k","section":1,"offset":140}}"#,
    #"{"jsonrpc":"2.0","id":"p13","method":"layout/setItemSizes","params":{"session":"k","sizes":[{"section":0,"item":2,"size":{"width":100,"height":70}}]}}"#,
    // An endless pager of a ferris wheel, scrolled between two pages.
    #"{"jsonrpc":"2.0","id":"p14","method":"layout/open","params":{"session":"g","layout":{"type":"pager","itemSize":{"width":200,"height":150},"transformer":"ferrisWheel","wrap":true,"decelerationDistance":2},"bounds":{"x":0,"y":0,"width":375,"height":300},"sections":[{"itemCount":6,"ids":[0,1,2,3,4,5]}]}}"#,
    #"{"jsonrpc":"2.0","id":"p15","method":"layout/setBounds","params":{"session":"g","bounds":{"x":-250.5,"y":0,"width":375,"height":300}}}"#,
    // Snapshots: the pager's pages shuffled, and a list of id'd sections
    // (first apply a reload, then a diff with moves across sections).
    #"{"jsonrpc":"2.0","id":"p16","method":"layout/applySnapshot","params":{"session":"g","sections":[{"id":"p","items":[3,0,1,"n",5]}]}}"#,
    #"{"jsonrpc":"2.0","id":"p17","method":"layout/applySnapshot","params":{"session":"f","sections":[{"id":"a","items":["x","y",{"id":"z","size":{"width":80,"height":20}}]},{"id":"b","items":[1,2,3]}]}}"#,
    #"{"jsonrpc":"2.0","id":"p18","method":"layout/applySnapshot","params":{"session":"f","sections":[{"id":"b","items":[3,"y",1]},{"id":"a","items":["z",2,"x","w"],"minimumLineSpacing":4}],"reconfigureItems":["z"]}}"#,
    #"{"jsonrpc":"2.0","id":"p19","method":"layout/configure","params":{"session":"f","layout":{"reorderTargeting":"nearest","reorderHysteresis":4}}}"#,
    #"{"jsonrpc":"2.0","id":"p20","method":"layout/beginInteractiveMovement","params":{"session":"f","id":"x"}}"#,
    #"{"jsonrpc":"2.0","id":"p21","method":"layout/updateInteractiveMovement","params":{"session":"f","position":{"x":150,"y":190}}}"#,
    #"{"jsonrpc":"2.0","id":"p22","method":"layout/endInteractiveMovement","params":{"session":"f"}}"#,
    #"{"jsonrpc":"2.0","id":"p23","method":"layout/beginInteractiveMovement","params":{"session":"w","section":1,"item":2}}"#,
    #"{"jsonrpc":"2.0","id":"p24","method":"layout/updateInteractiveMovement","params":{"session":"w","position":{"x":60,"y":40}}}"#,
  ]
  var bytes: [UInt8] = []
  for m in messages { encodeFrame(Array(m.utf8), into: &bytes) }
  return bytes
}()

/// Feeds one input to a fresh server and checks that everything it wrote is
/// well-formed: frames whose bodies are JSON objects or arrays.
func runOne(_ data: UnsafeRawBufferPointer) {
  var limits = Limits()
  limits.maxItemsPerSession = 100_000
  limits.maxSessions = 16
  limits.maxMessageBytes = 1 << 20
  limits.maxAnswerBytes = 1 << 20
  let server = Server(
    handler: LayoutServer(limits: limits), input: -1, output: -1, maxMessageBytes: 1 << 20)
  _ = prelude.withUnsafeBytes { server.feed($0) }
  _ = server.takeOutput()
  _ = server.feed(data)
  var reader = FrameReader()
  reader.append(server.takeOutput())
  while let event = reader.next() {
    guard case .message(let body) = event, let doc = try? JSONDocument.parse(body),
      doc.root.isObject || doc.root.isArray
    else { fatalError("the server wrote a malformed frame") }
  }
  if reader.bufferedCount != 0 { fatalError("the server wrote a partial frame") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  runOne(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

#if FUZZING
  // SwiftPM links an executable's entry point under `<module>_main`; hand
  // it to libFuzzer's driver.
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  @_cdecl("flowlayout_fuzz_main")
  func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
  {
    var count = argc
    var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return withUnsafeMutablePointer(to: &vector) { v in
      LLVMFuzzerRunDriver(
        &count,
        UnsafeMutableRawPointer(v).assumingMemoryBound(
          to: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self), fuzzOne)
    }
  }
#else
  @main
  struct Replay {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let f = fopen(path, "rb") else {
          print("cannot open \(path)")
          exit(2)
        }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
          let n = fread(&buf, 1, buf.count, f)
          if n <= 0 { break }
          bytes += buf[0..<n]
        }
        fclose(f)
        bytes.withUnsafeBytes { runOne($0) }
      }
      print("replayed \(CommandLine.arguments.count - 1) inputs")
    }
  }
#endif
