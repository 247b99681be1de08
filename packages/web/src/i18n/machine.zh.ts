/**
 * Chinese texts of the machine checks: the device check's notice of a second screen, and the words of the details of
 * a second screen and of a virtual machine or remote desktop (the contract's vocabulary).
 */
export const machineZh = {
  'proctor.secondScreen.title': '检测到第二块屏幕',
  'proctor.secondScreen.body':
    '本场考试只能使用一块屏幕。请断开其他屏幕（或将显示设置为“仅一块屏幕”），之后即可开始考试。监考老师会看到曾连接第二块屏幕的记录。',
  'detail.secondScreen': '连接了第二块屏幕（{when}）{screens}',
  'detail.secondScreen.when.check': '设备检测时',
  'detail.secondScreen.when.exam': '进入考试时',
  'detail.secondScreen.when.change': '考试中接入',
  'detail.secondScreen.screens': '：共 {n} 块屏幕（{labels}）',
  'detail.virtualMachine': '疑似虚拟机或远程桌面：{signs}。显卡：{renderer}；屏幕 {screen}；摄像头：{camera}',
  'detail.virtualMachine.sign.softwareRenderer': '软件图形渲染',
  'detail.virtualMachine.sign.virtualAdapter': '虚拟显卡',
  'detail.virtualMachine.sign.remoteDisplay': '远程桌面显卡',
  'detail.virtualMachine.sign.screenShape': '虚拟机式屏幕',
  'detail.virtualMachine.sign.virtualCamera': '虚拟摄像头',
  'detail.virtualMachine.noCamera': '无',
} satisfies Record<`detail.${'secondScreen' | 'virtualMachine'}`, string> & Record<string, string>;
