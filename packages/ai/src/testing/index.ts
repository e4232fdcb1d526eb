export { ruleAgent, ruleChat, ruleJudge, ruleModel } from './rule-model';
export {
  type Responder,
  type ScriptedModelServer,
  type ScriptedReply,
  type ScriptedRequest,
  startScriptedModelServer,
} from './scripted-model-server';
