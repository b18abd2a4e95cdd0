// A small ResNet-style image classifier in bf16, NHWC (TTIR's layout):
// a 32x32 image of 16 channels, a stem convolution, one residual block
// (two 3x3 convolutions and the skip), 2x2 max pooling, a strided
// convolution, global average pooling (mean over H and W) and a linear
// head giving the logits of 10 classes. Weights are arguments marked as
// parameters (ttc compile --random-params SEED, or --param).
module @cnn {
  func.func @forward(%x: tensor<1x32x32x16xbf16> loc("image"),
      %w0: tensor<32x16x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("stem.weight"),
      %b0: tensor<1x1x1x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("stem.bias"),
      %w1: tensor<32x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("block.conv1.weight"),
      %b1: tensor<1x1x1x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("block.conv1.bias"),
      %w2: tensor<32x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("block.conv2.weight"),
      %b2: tensor<1x1x1x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("block.conv2.bias"),
      %w3: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("down.weight"),
      %b3: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("down.bias"),
      %wf: tensor<64x10xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("head.weight"),
      %bf: tensor<10xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("head.bias")) -> tensor<1x10xbf16> {
    %c0 = "ttir.conv2d"(%x, %w0, %b0) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x32x32x16xbf16>, tensor<32x16x3x3xbf16>, tensor<1x1x1x32xbf16>) -> tensor<1x32x32x32xbf16> loc("stem")
    %r0 = "ttir.relu"(%c0) : (tensor<1x32x32x32xbf16>) -> tensor<1x32x32x32xbf16> loc("stem.relu")
    %c1 = "ttir.conv2d"(%r0, %w1, %b1) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x32x32x32xbf16>, tensor<32x32x3x3xbf16>, tensor<1x1x1x32xbf16>) -> tensor<1x32x32x32xbf16> loc("block.conv1")
    %r1 = "ttir.relu"(%c1) : (tensor<1x32x32x32xbf16>) -> tensor<1x32x32x32xbf16> loc("block.relu1")
    %c2 = "ttir.conv2d"(%r1, %w2, %b2) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x32x32x32xbf16>, tensor<32x32x3x3xbf16>, tensor<1x1x1x32xbf16>) -> tensor<1x32x32x32xbf16> loc("block.conv2")
    %s = "ttir.add"(%c2, %r0) : (tensor<1x32x32x32xbf16>, tensor<1x32x32x32xbf16>) -> tensor<1x32x32x32xbf16> loc("block.skip")
    %r2 = "ttir.relu"(%s) : (tensor<1x32x32x32xbf16>) -> tensor<1x32x32x32xbf16> loc("block.relu2")
    %p = "ttir.max_pool2d"(%r2) <{kernel = 2 : i32, stride = 2 : i32, dilation = 1 : i32, padding = 0 : i32, ceil_mode = false}> : (tensor<1x32x32x32xbf16>) -> tensor<1x16x16x32xbf16> loc("pool")
    %c3 = "ttir.conv2d"(%p, %w3, %b3) <{stride = 2 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x8x8x64xbf16> loc("down")
    %r3 = "ttir.relu"(%c3) : (tensor<1x8x8x64xbf16>) -> tensor<1x8x8x64xbf16> loc("down.relu")
    %g = "ttir.mean"(%r3) <{dim_arg = [1 : i32, 2 : i32], keep_dim = true}> : (tensor<1x8x8x64xbf16>) -> tensor<1x1x1x64xbf16> loc("gap")
    %f = "ttir.reshape"(%g) <{shape = [1 : i32, 64 : i32]}> : (tensor<1x1x1x64xbf16>) -> tensor<1x64xbf16> loc("flatten")
    %l = "ttir.linear"(%f, %wf, %bf) : (tensor<1x64xbf16>, tensor<64x10xbf16>, tensor<10xbf16>) -> tensor<1x10xbf16> loc("head")
    return %l : tensor<1x10xbf16>
  }
}
